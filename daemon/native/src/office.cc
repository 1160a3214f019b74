#include "office.h"

#include <LibreOfficeKit/LibreOfficeKitInit.h>

#include <dlfcn.h>

#include <atomic>
#include <string>

#include "args.h"
#include "document.h"
#include "errors.h"
#include "optional-calls.h"

namespace ode {
namespace {

// LibreOffice can be started once per process and never restarted after lo_destroy.
std::atomic<bool> g_started{false};

constexpr unsigned long long kPasswordFeatures =
    LOK_FEATURE_DOCUMENT_PASSWORD | LOK_FEATURE_DOCUMENT_PASSWORD_TO_MODIFY;

// The office callback LibreOffice calls (any thread, possibly holding or waiting on its Solar mutex).
// Password questions are answered here, before anything else, because the loading thread blocks
// until they are; then every callback is forwarded to JS without waiting.
void OfficeCallback(int type, const char* payload, void* data) {
  auto* core = static_cast<OfficeCore*>(data);
  if (type == LOK_CALLBACK_DOCUMENT_PASSWORD || type == LOK_CALLBACK_DOCUMENT_PASSWORD_TO_MODIFY) {
    core->passwords.Answer(core->kit, type, payload);
  }
  core->callbacks->Push(type, payload);
}

constexpr const char* kSetDialogCancelMode = "_ZN11Application19SetDialogCancelModeE16DialogCancelMode";
constexpr const char* kGetDialogCancelMode = "_ZN11Application19GetDialogCancelModeEv";

}  // namespace

// Used for VCL's Application::SetDialogCancelMode / GetDialogCancelMode (static members; DialogCancelMode is an
// `enum class` with an int underlying type: Off, Silent, LOKSilent, Fatal in 7.4). LibreOfficeKit has no call for
// it, and a load with Batch=true sets LOKSilent for the whole process, for good: every later dialog closes as
// soon as it opens. And for Application::PostUserEvent (input-fence.cc). The library that holds LibreOfficeKit's
// functions is libmergedlo.so in Debian's merged build.
void* FindVclSymbol(LibreOfficeKit* kit, const char* mangled) {
  Dl_info info{};
  if (!kit || !dladdr(reinterpret_cast<void*>(kit->pClass->documentLoad), &info) || !info.dli_fname) return nullptr;
  std::string lib(info.dli_fname);
  std::string dir = lib.substr(0, lib.rfind('/') + 1);
  for (const std::string& candidate : {lib, dir + "libvcllo.so"}) {
    void* handle = dlopen(candidate.c_str(), RTLD_LAZY | RTLD_NOLOAD);
    if (!handle) continue;
    void* sym = dlsym(handle, mangled);
    dlclose(handle);  // RTLD_NOLOAD only added a reference: LibreOffice keeps the library loaded
    if (sym) return sym;
  }
  return nullptr;
}

std::string OfficeCore::LastError() const {
  if (!kit) return std::string();
  char* err = kit->pClass->getError(kit);
  if (!err) return std::string();
  std::string out(err);
  if (kit->pClass->freeError) {
    kit->pClass->freeError(err);
  } else {
    std::free(err);
  }
  return out;
}

Napi::Function Office::Define(Napi::Env env) {
  return DefineClass(env, "Office",
                     {
                         InstanceMethod<&Office::GetError>("getError"),
                         InstanceMethod<&Office::GetVersionInfo>("getVersionInfo"),
                         InstanceMethod<&Office::GetFilterTypes>("getFilterTypes"),
                         InstanceMethod<&Office::SetOptionalFeatures>("setOptionalFeatures"),
                         InstanceMethod<&Office::GetDialogCancelMode>("getDialogCancelMode"),
                         InstanceMethod<&Office::SetDialogCancelMode>("setDialogCancelMode"),
                         InstanceMethod<&Office::DocumentLoad>("documentLoad"),
                         InstanceMethod<&Office::ExtractRequest>("extractRequest"),
                         InstanceMethod<&Office::ExtractDocumentStructureRequest>(
                             "extractDocumentStructureRequest"),
                         InstanceMethod<&Office::TrimMemory>("trimMemory"),
                         InstanceMethod<&Office::SetOption>("setOption"),
                         InstanceMethod<&Office::OptionalCalls>("optionalCalls"),
                         InstanceMethod<&Office::Destroy>("destroy"),
                     });
}

Office::Office(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Office>(info) {
  Napi::Env env = info.Env();
  std::string programDir = StringArg(info, 0, "programDir");
  std::string profileUrl = StringArg(info, 1, "profileUrl");
  Napi::Function dispatch = FunctionArg(info, 2, "dispatch");
  if (g_started.exchange(true)) {
    ThrowError(env, code::kAlreadyInitialized,
               "LibreOffice is already initialised in this process (one Office per process; it "
               "cannot be restarted after destroy): start a new process");
  }
  LibreOfficeKit* kit = lok_init_2(programDir.c_str(), profileUrl.c_str());
  if (!kit) {
    ThrowError(env, code::kInitFailed,
               "lok_init_2 failed for program dir " + programDir +
                   " (is LibreOffice installed there? apt-get install libreoffice-core)");
  }
  core_ = new OfficeCore();
  core_->kit = kit;
  core_->callbacks = CallbackQueue::Create(env, dispatch, "ode-lok-office-callback");
  kit->pClass->setOptionalFeatures(kit, kPasswordFeatures);
  kit->pClass->registerCallback(kit, OfficeCallback, core_);
}

LibreOfficeKit* Office::Live(Napi::Env env) {
  if (!core_ || core_->destroyed) {
    ThrowError(env, code::kDestroyed, "the office was destroyed");
  }
  return core_->kit;
}

Napi::Value Office::GetError(const Napi::CallbackInfo& info) {
  Live(info.Env());
  return Napi::String::New(info.Env(), core_->LastError());
}

Napi::Value Office::GetVersionInfo(const Napi::CallbackInfo& info) {
  LibreOfficeKit* kit = Live(info.Env());
  return Napi::String::New(info.Env(), TakeLokString(kit->pClass->getVersionInfo(kit)));
}

Napi::Value Office::GetFilterTypes(const Napi::CallbackInfo& info) {
  LibreOfficeKit* kit = Live(info.Env());
  return Napi::String::New(info.Env(), TakeLokString(kit->pClass->getFilterTypes(kit)));
}

// setOptionalFeatures(features: bigint). The password features stay on whatever is passed: without
// them a protected document would make the load fail without saying why.
Napi::Value Office::SetOptionalFeatures(const Napi::CallbackInfo& info) {
  LibreOfficeKit* kit = Live(info.Env());
  if (info.Length() < 1 || !info[0].IsBigInt()) {
    ThrowError(info.Env(), code::kInvalidArgument, "features must be a bigint");
  }
  bool lossless = false;
  uint64_t features = info[0].As<Napi::BigInt>().Uint64Value(&lossless);
  if (!lossless) ThrowError(info.Env(), code::kInvalidArgument, "features must fit in 64 bits");
  kit->pClass->setOptionalFeatures(kit, features | kPasswordFeatures);
  return info.Env().Undefined();
}

// getDialogCancelMode() -> number (VCL DialogCancelMode), or null when the symbol is not found.
Napi::Value Office::GetDialogCancelMode(const Napi::CallbackInfo& info) {
  LibreOfficeKit* kit = Live(info.Env());
  auto get = reinterpret_cast<int (*)()>(FindVclSymbol(kit, kGetDialogCancelMode));
  if (!get) return info.Env().Null();
  return Napi::Number::New(info.Env(), get());
}

// setDialogCancelMode(mode) -> boolean: false when the symbol is not found (nothing changed).
Napi::Value Office::SetDialogCancelMode(const Napi::CallbackInfo& info) {
  LibreOfficeKit* kit = Live(info.Env());
  int mode = IntArg(info, 0, "mode");
  if (mode < 0 || mode > 3) ThrowError(info.Env(), code::kInvalidArgument, "mode must be 0..3");
  auto set = reinterpret_cast<void (*)(int)>(FindVclSymbol(kit, kSetDialogCancelMode));
  if (!set) return Napi::Boolean::New(info.Env(), false);
  set(mode);
  return Napi::Boolean::New(info.Env(), true);
}

// trimMemory(target): LibreOffice drops caches it can rebuild (lok::Office::trimMemory; LibreOffice reads
// `target` as how hard to try: >= 1000 also returns freed heap to the system). Optional call.
Napi::Value Office::TrimMemory(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LibreOfficeKit* kit = Live(env);
  ODE_REQUIRE_OFFICE(env, kit, trimMemory);
  kit->pClass->trimMemory(kit, IntArg(info, 0, "target"));
  return env.Undefined();
}

// setOption(option, value): lok::Office::setOption (e.g. "profilezonerecording", "sallogoverride"). Optional
// call.
Napi::Value Office::SetOption(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LibreOfficeKit* kit = Live(env);
  ODE_REQUIRE_OFFICE(env, kit, setOption);
  std::string option = StringArg(info, 0, "option");
  std::optional<std::string> value = OptionalStringArg(info, 1, "value");
  kit->pClass->setOption(kit, option.c_str(), value ? value->c_str() : nullptr);
  return env.Undefined();
}

// optionalCalls() -> string[]: the lok::Office calls of optional-calls.h this LibreOffice has.
Napi::Value Office::OptionalCalls(const Napi::CallbackInfo& info) {
  LibreOfficeKit* kit = Live(info.Env());
  return PresentCalls(info.Env(), kit->pClass, OfficeOptionalCalls());
}

// destroy(): destroys every open document, then LibreOffice (lo_destroy joins its main thread).
// Idempotent. Throws busy while a documentLoad or any document's async call is in flight.
Napi::Value Office::Destroy(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!core_ || core_->destroyed) return env.Undefined();
  if (core_->loadsInFlight > 0) {
    ThrowError(env, code::kBusy, "office.destroy: a documentLoad is in flight; await it first");
  }
  for (Document* doc : core_->documents) {
    if (doc->busy()) {
      ThrowError(env, code::kBusy,
                 "office.destroy: a document has an async call in flight; await it first");
    }
  }
  while (!core_->documents.empty()) {
    (*core_->documents.begin())->DestroyNative();  // erases itself from the set
  }
  core_->kit->pClass->destroy(core_->kit);
  core_->destroyed = true;
  core_->callbacks->Close();
  return env.Undefined();
}

}  // namespace ode
