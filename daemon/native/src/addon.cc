// Module entry: exports { Office, Document, setErrorClass, exitNow }. See ../README.md for the API and the
// threading design.
#include <napi.h>
#include <unistd.h>

#include <cstdio>

#include "addon-data.h"
#include "args.h"
#include "document.h"
#include "errors.h"
#include "office.h"

namespace ode {
namespace {

// setErrorClass(ctor): the facade's error class, constructed as new ctor(message, code).
Napi::Value SetErrorClassJs(const Napi::CallbackInfo& info) {
  SetErrorClass(info.Env(), FunctionArg(info, 0, "ctor"));
  return info.Env().Undefined();
}

// exitNow(code): ends the process with _exit(code), skipping atexit handlers and static destructors.
// LibreOffice's static destructors, run by exit() after lo_destroy, intermittently corrupt the heap
// ("corrupted double-linked list", SIGABRT) in about 1 of 20 exits (measured with process.exit() right
// after office.destroy()). stdout/stderr are pipes or files here, which Node writes synchronously on Linux.
Napi::Value ExitNow(const Napi::CallbackInfo& info) {
  int code = IntArg(info, 0, "code");
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(code);
}

}  // namespace

Napi::Object InitAddon(Napi::Env env, Napi::Object exports) {
  Napi::Function documentClass = Document::Define(env);
  GetAddonData(env)->documentClass = Napi::Persistent(documentClass);
  exports.Set("Office", Office::Define(env));
  exports.Set("Document", documentClass);
  exports.Set("setErrorClass", Napi::Function::New(env, SetErrorClassJs, "setErrorClass"));
  exports.Set("exitNow", Napi::Function::New(env, ExitNow, "exitNow"));
  return exports;
}

}  // namespace ode

// NODE_API_MODULE pastes the function name into an identifier, so it must be unqualified.
static Napi::Object Init(Napi::Env env, Napi::Object exports) { return ode::InitAddon(env, exports); }
NODE_API_MODULE(ode_lok, Init)
