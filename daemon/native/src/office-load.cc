// office.documentLoad(url, options?, password?) -> Promise<native.Document>, on the libuv pool.
#include <optional>
#include <string>

#include "addon-data.h"
#include "args.h"
#include "document.h"
#include "office.h"
#include "promise-worker.h"

namespace ode {
namespace {

class LoadWorker : public PromiseWorker {
 public:
  LoadWorker(Napi::Env env, Napi::Object office, OfficeCore* core, std::string url,
             std::string options)
      : PromiseWorker(env, "ode-lok-documentLoad"),
        office_(Napi::Persistent(office)),
        core_(core),
        url_(std::move(url)),
        options_(std::move(options)) {}

  void Execute() override {
    LibreOfficeKit* kit = core_->kit;
    PasswordBroker::ThreadScope scope(url_);
    // LibreOffice splits `options` itself: it takes out Language=, DeviceFormFactor=, Batch=,
    // MacroSecurityLevel=, EnableMacrosExecution= and passes the rest on as FilterOptions.
    doc_ = kit->pClass->documentLoadWithOptions(kit, url_.c_str(),
                                                options_.empty() ? nullptr : options_.c_str());
    std::string lokError = doc_ ? std::string() : core_->LastError();
    PasswordResult pw = core_->passwords.End(url_);
    if (doc_) return;
    std::string suffix = lokError.empty() ? "" : " (LibreOffice: " + lokError + ")";
    if (pw.outcome == PasswordOutcome::kRequired) {
      Fail(code::kPasswordRequired, "documentLoad " + url_ + ": the document is password-protected" +
                                        " and no password was given" + suffix);
    } else if (pw.outcome == PasswordOutcome::kInvalid) {
      Fail(code::kPasswordInvalid, "documentLoad " + url_ + ": wrong password" + suffix);
    } else if (pw.supplied) {
      // Some filters (Word 97) do not ask again after a wrong password; the load just fails.
      Fail(code::kPasswordInvalid,
           "documentLoad " + url_ + ": LibreOffice did not accept the password" + suffix);
    } else {
      Fail(code::kLoadFailed, "documentLoad " + url_ + " failed: " +
                                  (lokError.empty() ? "no error text from LibreOffice" : lokError));
    }
  }

 private:
  void Settle() override { --core_->loadsInFlight; }

  Napi::Value Result() override {
    Napi::Env env = Env();
    Napi::Function ctor = GetAddonData(env)->documentClass.Value();
    return ctor.New({Napi::External<LibreOfficeKitDocument>::New(env, doc_), office_.Value()});
  }

  Napi::ObjectReference office_;
  OfficeCore* core_;
  std::string url_;
  std::string options_;
  LibreOfficeKitDocument* doc_ = nullptr;
};

}  // namespace

Napi::Value Office::DocumentLoad(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Live(env);
  std::string url = StringArg(info, 0, "url");
  std::string options = OptionalStringArg(info, 1, "options").value_or("");
  std::optional<std::string> password = OptionalStringArg(info, 2, "password");
  if (!core_->passwords.Begin(url, std::move(password))) {
    ThrowError(env, code::kBusy, "documentLoad " + url + ": a load of the same URL is in flight");
  }
  auto* worker = new LoadWorker(env, Value(), core_, url, options);
  ++core_->loadsInFlight;
  worker->Queue();
  return worker->Promise();
}

}  // namespace ode
