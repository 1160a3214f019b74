#include "document.h"

#include "args.h"
#include "errors.h"
#include "optional-calls.h"

#include <vector>

namespace ode {

Napi::Function Document::Define(Napi::Env env) {
  return DefineClass(
      env, "Document",
      {
          InstanceMethod<&Document::Destroy>("destroy"),
          InstanceMethod<&Document::GetDocumentType>("getDocumentType"),
          InstanceMethod<&Document::GetParts>("getParts"),
          InstanceMethod<&Document::GetPart>("getPart"),
          InstanceMethod<&Document::SetPart>("setPart"),
          InstanceMethod<&Document::GetPartName>("getPartName"),
          InstanceMethod<&Document::GetPartInfo>("getPartInfo"),
          InstanceMethod<&Document::GetPartPageRectangles>("getPartPageRectangles"),
          InstanceMethod<&Document::GetDocumentSize>("getDocumentSize"),
          InstanceMethod<&Document::InitializeForRendering>("initializeForRendering"),
          InstanceMethod<&Document::RegisterCallback>("registerCallback"),
          InstanceMethod<&Document::GetCommandValues>("getCommandValues"),
          InstanceMethod<&Document::GetEditMode>("getEditMode"),
          InstanceMethod<&Document::OptionalCalls>("optionalCalls"),
          InstanceMethod<&Document::PaintTile>("paintTile"),
          InstanceMethod<&Document::PaintPartTile>("paintPartTile"),
          InstanceMethod<&Document::PaintWindow>("paintWindow"),
          InstanceMethod<&Document::RenderFont>("renderFont"),
          InstanceMethod<&Document::PostWindow>("postWindow"),
          InstanceMethod<&Document::SaveAs>("saveAs"),
          InstanceMethod<&Document::PostKeyEvent>("postKeyEvent"),
          InstanceMethod<&Document::PostMouseEvent>("postMouseEvent"),
          InstanceMethod<&Document::PostUnoCommand>("postUnoCommand"),
          InstanceMethod<&Document::SetTextSelection>("setTextSelection"),
          InstanceMethod<&Document::GetTextSelection>("getTextSelection"),
          InstanceMethod<&Document::ResetSelection>("resetSelection"),
          InstanceMethod<&Document::PostWindowKeyEvent>("postWindowKeyEvent"),
          InstanceMethod<&Document::SendDialogEvent>("sendDialogEvent"),
          InstanceMethod<&Document::PostWindowExtTextInputEvent>("postWindowExtTextInputEvent"),
          InstanceMethod<&Document::PostWindowMouseEvent>("postWindowMouseEvent"),
          InstanceMethod<&Document::SendContentControlEvent>("sendContentControlEvent"),
          InstanceMethod<&Document::PostInputFence>("postInputFence"),
          InstanceMethod<&Document::CreateView>("createView"),
          InstanceMethod<&Document::DestroyView>("destroyView"),
          InstanceMethod<&Document::SetView>("setView"),
          InstanceMethod<&Document::GetView>("getView"),
          InstanceMethod<&Document::GetViewsCount>("getViewsCount"),
          InstanceMethod<&Document::SetClientVisibleArea>("setClientVisibleArea"),
          InstanceMethod<&Document::SetClientZoom>("setClientZoom"),
          InstanceMethod<&Document::SetViewReadOnly>("setViewReadOnly"),
          InstanceMethod<&Document::SetAllowChangeComments>("setAllowChangeComments"),
          InstanceMethod<&Document::SetViewTimezone>("setViewTimezone"),
          InstanceMethod<&Document::SetViewOption>("setViewOption"),
          InstanceMethod<&Document::GetClipboard>("getClipboard"),
          InstanceMethod<&Document::SetClipboard>("setClipboard"),
          InstanceMethod<&Document::Paste>("paste"),
          InstanceMethod<&Document::InsertCertificate>("insertCertificate"),
          InstanceMethod<&Document::AddCertificate>("addCertificate"),
          InstanceMethod<&Document::GetSignatureState>("getSignatureState"),
          InstanceMethod<&Document::GetPresentationInfo>("getPresentationInfo"),
          InstanceMethod<&Document::CreateSlideRenderer>("createSlideRenderer"),
          InstanceMethod<&Document::RenderNextSlideLayer>("renderNextSlideLayer"),
          InstanceMethod<&Document::PostSlideshowCleanup>("postSlideshowCleanup"),
      });
}

Document::Document(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Document>(info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[0].IsExternal() || !info[1].IsObject()) {
    ThrowError(env, code::kInvalidArgument, "documents are created by office.documentLoad()");
  }
  Napi::Object office = info[1].As<Napi::Object>();
  core_ = Office::Unwrap(office)->core();
  office_ = Napi::Persistent(office);
  doc_ = info[0].As<Napi::External<LibreOfficeKitDocument>>().Data();
  core_->documents.insert(this);
}

Document::~Document() {
  // Garbage-collected without destroy(): free the LibreOffice document too. Async workers hold a
  // reference to the JS object, so nothing is in flight here.
  if (!destroyed_ && !core_->destroyed) DestroyNative();
}

namespace {

// LibreOffice 25.2 aborts ("Unspecified Application Error") when a document is destroyed while a view's text
// selection spans content controls (measured: ContentControls.docx after .uno:SelectAll, every time; other
// documents close fine). Clearing each view's selection first avoids it; the document is going away anyway.
void ClearSelections(LibreOfficeKitDocument* d) {
  int count = d->pClass->getViewsCount(d);
  if (count <= 0) return;
  std::vector<int> ids(static_cast<size_t>(count));
  if (!d->pClass->getViewIds(d, ids.data(), ids.size())) return;
  for (int id : ids) {
    d->pClass->setView(d, id);
    d->pClass->resetSelection(d);
  }
}

}  // namespace

void Document::DestroyNative() {
  if (destroyed_) return;
  destroyed_ = true;
  if (!core_->destroyed && doc_) {
    ClearSelections(doc_);
    doc_->pClass->destroy(doc_);
  }
  doc_ = nullptr;
  // LibreOffice no longer calls back for this document: the queues can go.
  for (CallbackQueue* q : queues_) q->Close();
  queues_.clear();
  core_->documents.erase(this);
  office_.Reset();
}

LibreOfficeKitDocument* Document::Live(Napi::Env env) {
  if (destroyed_ || core_->destroyed) {
    ThrowError(env, code::kDestroyed,
               destroyed_ ? "the document was destroyed" : "the office was destroyed");
  }
  return doc_;
}

// destroy(): idempotent; throws busy while saveAs/paintTile/paintPartTile is in flight.
Napi::Value Document::Destroy(const Napi::CallbackInfo& info) {
  if (destroyed_ || core_->destroyed) return info.Env().Undefined();
  if (busy()) {
    ThrowError(info.Env(), code::kBusy,
               "document.destroy: an async call (saveAs/paintTile) is in flight; await it first");
  }
  DestroyNative();
  return info.Env().Undefined();
}

Napi::Value Document::GetDocumentType(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  return Napi::Number::New(info.Env(), d->pClass->getDocumentType(d));
}

Napi::Value Document::GetParts(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  return Napi::Number::New(info.Env(), d->pClass->getParts(d));
}

Napi::Value Document::GetPart(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  return Napi::Number::New(info.Env(), d->pClass->getPart(d));
}

Napi::Value Document::SetPart(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  d->pClass->setPart(d, IntArg(info, 0, "part"));
  return info.Env().Undefined();
}

Napi::Value Document::GetPartName(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  int part = IntArg(info, 0, "part");
  return Napi::String::New(info.Env(), TakeLokString(d->pClass->getPartName(d, part)));
}

Napi::Value Document::GetPartInfo(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  int part = IntArg(info, 0, "part");
  return Napi::String::New(info.Env(), TakeLokString(d->pClass->getPartInfo(d, part)));
}

Napi::Value Document::GetPartPageRectangles(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  return Napi::String::New(info.Env(), TakeLokString(d->pClass->getPartPageRectangles(d)));
}

// getDocumentSize() -> { width, height } in twips.
Napi::Value Document::GetDocumentSize(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  long width = 0, height = 0;
  d->pClass->getDocumentSize(d, &width, &height);
  Napi::Object out = Napi::Object::New(info.Env());
  out.Set("width", Napi::Number::New(info.Env(), static_cast<double>(width)));
  out.Set("height", Napi::Number::New(info.Env(), static_cast<double>(height)));
  return out;
}

Napi::Value Document::InitializeForRendering(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  std::string args = OptionalStringArg(info, 0, "args").value_or("");
  d->pClass->initializeForRendering(d, args.c_str());
  return info.Env().Undefined();
}

// registerCallback(fn): LibreOffice keeps one callback per view and registers it for the current view,
// replacing that view's previous one.
Napi::Value Document::RegisterCallback(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  Napi::Function fn = FunctionArg(info, 0, "callback");
  CallbackQueue* queue = CallbackQueue::Create(info.Env(), fn, "ode-lok-document-callback");
  queues_.push_back(queue);
  d->pClass->registerCallback(d, CallbackQueue::Trampoline, queue);
  return info.Env().Undefined();
}

// getCommandValues(command) -> string, or null where LibreOffice answers NULL.
Napi::Value Document::GetCommandValues(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  std::string command = StringArg(info, 0, "command");
  bool wasNull = false;
  std::string out = TakeLokString(d->pClass->getCommandValues(d, command.c_str()), &wasNull);
  if (wasNull) return info.Env().Null();
  return Napi::String::New(info.Env(), out);
}

// getEditMode() -> number: Impress' edit mode of the current view (0 normal, 1 master pages). Optional call.
Napi::Value Document::GetEditMode(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LibreOfficeKitDocument* d = Live(env);
  ODE_REQUIRE_DOCUMENT(env, d, getEditMode);
  return Napi::Number::New(env, d->pClass->getEditMode(d));
}

// optionalCalls() -> string[]: the lok::Document calls of optional-calls.h this LibreOffice has.
Napi::Value Document::OptionalCalls(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  return PresentCalls(info.Env(), d->pClass, DocumentOptionalCalls());
}

}  // namespace ode
