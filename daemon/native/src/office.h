// The LibreOfficeKit instance of this process (lok_init_2), as the JS class native.Office.
#pragma once

#include <napi.h>

#include <set>

#include "callback-queue.h"
#include "lok.h"
#include "password-broker.h"

namespace ode {

class Document;

// A VCL function or static member of the running LibreOffice, found by its mangled name (LibreOfficeKit has no
// call for it) in the library that holds LibreOfficeKit's functions, else in libvcllo.so beside it; nullptr when
// absent. office.cc.
void* FindVclSymbol(LibreOfficeKit* kit, const char* mangled);

// Everything LibreOffice may reach through the office callback's data pointer. Heap-allocated and never
// freed: LibreOffice keeps the pointer until lo_destroy, and the process ends soon after that.
struct OfficeCore {
  LibreOfficeKit* kit = nullptr;
  CallbackQueue* callbacks = nullptr;  // every office callback, forwarded to the facade's dispatcher
  PasswordBroker passwords;
  bool destroyed = false;
  int loadsInFlight = 0;               // documentLoad workers not yet settled (JS thread only)
  std::set<Document*> documents;       // documents not yet destroyed (JS thread only)

  // getError() text, or "" (any thread).
  std::string LastError() const;
};

class Office : public Napi::ObjectWrap<Office> {
 public:
  static Napi::Function Define(Napi::Env env);

  // new Office(programDir: string, profileUrl: string, dispatch: (type, payload) => void).
  // Throws already_initialized (a second office in the process, even after destroy: LibreOffice
  // cannot restart in-process) or init_failed.
  explicit Office(const Napi::CallbackInfo& info);

  OfficeCore* core() const { return core_; }

 private:
  LibreOfficeKit* Live(Napi::Env env);  // throws destroyed
  Napi::Value GetError(const Napi::CallbackInfo& info);
  Napi::Value GetVersionInfo(const Napi::CallbackInfo& info);
  Napi::Value GetFilterTypes(const Napi::CallbackInfo& info);
  Napi::Value SetOptionalFeatures(const Napi::CallbackInfo& info);
  Napi::Value GetDialogCancelMode(const Napi::CallbackInfo& info);
  Napi::Value SetDialogCancelMode(const Napi::CallbackInfo& info);
  Napi::Value DocumentLoad(const Napi::CallbackInfo& info);  // office-load.cc
  Napi::Value ExtractRequest(const Napi::CallbackInfo& info);                   // office-extract.cc
  Napi::Value ExtractDocumentStructureRequest(const Napi::CallbackInfo& info);  // office-extract.cc
  Napi::Value StartExtract(const Napi::CallbackInfo& info, bool structure);     // office-extract.cc
  Napi::Value TrimMemory(const Napi::CallbackInfo& info);
  Napi::Value SetOption(const Napi::CallbackInfo& info);
  Napi::Value OptionalCalls(const Napi::CallbackInfo& info);
  Napi::Value Destroy(const Napi::CallbackInfo& info);

  OfficeCore* core_ = nullptr;
};

}  // namespace ode
