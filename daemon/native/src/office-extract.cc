// office.extractRequest(url) and office.extractDocumentStructureRequest(url, filter) -> Promise<string>, on the
// libuv pool: each loads the document hidden inside LibreOffice, reads it and closes it, which takes as long as a
// documentLoad. Both are optional calls (LibreOffice 7.6 / 24.x and later; see optional-calls.h).
//
// They count as loads in flight (office.destroy() waits for none: it throws busy), and they go through the
// password broker like documentLoad: if LibreOffice asks for a password, it is answered NULL on the asking thread
// (so the load fails instead of waiting for ever) and the call rejects password_required.
#include <optional>
#include <string>

#include "args.h"
#include "office.h"
#include "optional-calls.h"
#include "promise-worker.h"

namespace ode {
namespace {

class ExtractWorker : public PromiseWorker {
 public:
  // `filter` unset: extractRequest(url); set: extractDocumentStructureRequest(url, filter).
  ExtractWorker(Napi::Env env, Napi::Object office, OfficeCore* core, std::string url,
                std::optional<std::string> filter)
      : PromiseWorker(env, filter ? "ode-lok-extractDocumentStructureRequest" : "ode-lok-extractRequest"),
        office_(Napi::Persistent(office)),
        core_(core),
        url_(std::move(url)),
        filter_(std::move(filter)) {}

  void Execute() override {
    LibreOfficeKit* kit = core_->kit;
    PasswordBroker::ThreadScope scope(url_);
    char* out = filter_ ? kit->pClass->extractDocumentStructureRequest(kit, url_.c_str(), filter_->c_str())
                        : kit->pClass->extractRequest(kit, url_.c_str());
    bool wasNull = false;
    result_ = TakeLokString(out, &wasNull);
    std::string lokError = wasNull ? core_->LastError() : std::string();
    PasswordResult pw = core_->passwords.End(url_);
    const char* call = filter_ ? "extractDocumentStructureRequest" : "extractRequest";
    if (pw.outcome != PasswordOutcome::kNone) {
      Fail(code::kPasswordRequired, std::string(call) + " " + url_ + ": the document is password-protected");
    } else if (wasNull) {
      Fail(code::kCallFailed, std::string(call) + " " + url_ + " returned NULL" +
                                  (lokError.empty() ? "" : " (LibreOffice: " + lokError + ")"));
    }
  }

 private:
  void Settle() override { --core_->loadsInFlight; }
  Napi::Value Result() override { return Napi::String::New(Env(), result_); }

  Napi::ObjectReference office_;
  OfficeCore* core_;
  std::string url_;
  std::optional<std::string> filter_;
  std::string result_;
};

}  // namespace

Napi::Value Office::StartExtract(const Napi::CallbackInfo& info, bool structure) {
  Napi::Env env = info.Env();
  LibreOfficeKit* kit = Live(env);
  if (structure) {
    ODE_REQUIRE_OFFICE(env, kit, extractDocumentStructureRequest);
  } else {
    ODE_REQUIRE_OFFICE(env, kit, extractRequest);
  }
  std::string url = StringArg(info, 0, "url");
  std::optional<std::string> filter;
  if (structure) filter = OptionalStringArg(info, 1, "filter").value_or("");
  if (!core_->passwords.Begin(url, std::nullopt)) {
    ThrowError(env, code::kBusy, url + ": a load or extraction of the same URL is in flight");
  }
  auto* worker = new ExtractWorker(env, Value(), core_, url, std::move(filter));
  ++core_->loadsInFlight;
  worker->Queue();
  return worker->Promise();
}

// extractRequest(url) -> Promise<string>: LibreOffice's JSON of the document's link targets.
Napi::Value Office::ExtractRequest(const Napi::CallbackInfo& info) { return StartExtract(info, false); }

// extractDocumentStructureRequest(url, filter) -> Promise<string>: LibreOffice's JSON of the document's
// structure (content controls, charts, ... of a text document), `filter` as LibreOffice takes it ("" = all).
Napi::Value Office::ExtractDocumentStructureRequest(const Napi::CallbackInfo& info) {
  return StartExtract(info, true);
}

}  // namespace ode
