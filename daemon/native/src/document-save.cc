// saveAs(url, format, filterOptions?) -> Promise<void>, on the libuv pool.
#include "args.h"
#include "document.h"
#include "promise-worker.h"

namespace ode {
namespace {

class SaveWorker : public PromiseWorker {
 public:
  SaveWorker(Napi::Env env, Document* doc, Napi::Object docObject, LibreOfficeKitDocument* d,
             std::string url, std::string format, std::optional<std::string> filterOptions)
      : PromiseWorker(env, "ode-lok-saveAs"),
        doc_(doc),
        docObject_(Napi::Persistent(docObject)),
        d_(d),
        core_(doc->core()),
        url_(std::move(url)),
        format_(std::move(format)),
        filterOptions_(std::move(filterOptions)) {}

  void Execute() override {
    // An empty format lets LibreOffice pick the filter from the URL's extension.
    int ok = d_->pClass->saveAs(d_, url_.c_str(), format_.empty() ? nullptr : format_.c_str(),
                                filterOptions_ ? filterOptions_->c_str() : nullptr);
    if (!ok) {
      std::string lokError = core_->LastError();
      Fail(code::kSaveFailed, "saveAs " + url_ + " (" + (format_.empty() ? "by extension" : format_) +
                                  ") failed: " +
                                  (lokError.empty() ? "no error text from LibreOffice" : lokError));
    }
  }

 private:
  void Settle() override { doc_->EndAsync(); }

  Document* doc_;
  Napi::ObjectReference docObject_;
  LibreOfficeKitDocument* d_;
  OfficeCore* core_;
  std::string url_;
  std::string format_;
  std::optional<std::string> filterOptions_;
};

}  // namespace

Napi::Value Document::SaveAs(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  std::string url = StringArg(info, 0, "url");
  std::string format = OptionalStringArg(info, 1, "format").value_or("");
  std::optional<std::string> filterOptions = OptionalStringArg(info, 2, "filterOptions");
  auto* worker = new SaveWorker(info.Env(), this, Value(), d, url, format, filterOptions);
  BeginAsync();
  worker->Queue();
  return worker->Promise();
}

}  // namespace ode
