// One loaded LibreOfficeKit document, as the JS class native.Document. Created only by a documentLoad
// worker. Methods are split by concern: document.cc (life cycle, parts, callbacks),
// document-render.cc (paintTile, paintPartTile, paintWindow, renderFont, postWindow), document-save.cc (saveAs),
// document-input.cc (events, UNO commands, selection), input-fence.cc (the posted-input fence), document-views.cc (views, client area/zoom),
// document-clipboard.cc (clipboard, paste), document-sign.cc (certificates, signature state),
// document-slideshow.cc (the slide renderer). Calls newer than LibreOffice 7.4 are checked with optional-calls.h.
//
// State guards: every method throws `destroyed` after destroy() or office.destroy(). Slow calls run on
// the libuv pool and count as in flight; destroy() while one is in flight throws `busy`. Fast
// synchronous calls made while an async call is in flight are allowed: LibreOffice serialises them on
// its Solar mutex, so they may wait for the async call to finish.
#pragma once

#include <napi.h>

#include <vector>

#include "callback-queue.h"
#include "lok.h"
#include "office.h"

namespace ode {

class Document : public Napi::ObjectWrap<Document> {
 public:
  static Napi::Function Define(Napi::Env env);

  // new Document(External<LibreOfficeKitDocument>, office): only the load worker calls this.
  explicit Document(const Napi::CallbackInfo& info);
  ~Document() override;

  // Marks an async call in flight / settled (JS thread).
  void BeginAsync() { ++inFlight_; }
  void EndAsync() { --inFlight_; }
  bool busy() const { return inFlight_ > 0; }

  // Destroys the LibreOffice document and closes its callback queues. JS thread; caller checks busy().
  void DestroyNative();

  // Returns the live document or throws `destroyed` (JS thread).
  LibreOfficeKitDocument* Live(Napi::Env env);
  OfficeCore* core() const { return core_; }

 private:
  // document.cc
  Napi::Value Destroy(const Napi::CallbackInfo& info);
  Napi::Value GetDocumentType(const Napi::CallbackInfo& info);
  Napi::Value GetParts(const Napi::CallbackInfo& info);
  Napi::Value GetPart(const Napi::CallbackInfo& info);
  Napi::Value SetPart(const Napi::CallbackInfo& info);
  Napi::Value GetPartName(const Napi::CallbackInfo& info);
  Napi::Value GetPartInfo(const Napi::CallbackInfo& info);
  Napi::Value GetPartPageRectangles(const Napi::CallbackInfo& info);
  Napi::Value GetDocumentSize(const Napi::CallbackInfo& info);
  Napi::Value InitializeForRendering(const Napi::CallbackInfo& info);
  Napi::Value RegisterCallback(const Napi::CallbackInfo& info);
  Napi::Value GetCommandValues(const Napi::CallbackInfo& info);
  Napi::Value GetEditMode(const Napi::CallbackInfo& info);
  Napi::Value OptionalCalls(const Napi::CallbackInfo& info);
  // document-render.cc
  Napi::Value PaintTile(const Napi::CallbackInfo& info);
  Napi::Value PaintPartTile(const Napi::CallbackInfo& info);
  Napi::Value PaintWindow(const Napi::CallbackInfo& info);
  Napi::Value RenderFont(const Napi::CallbackInfo& info);
  Napi::Value PostWindow(const Napi::CallbackInfo& info);
  // document-save.cc
  Napi::Value SaveAs(const Napi::CallbackInfo& info);
  // document-input.cc
  Napi::Value PostKeyEvent(const Napi::CallbackInfo& info);
  Napi::Value PostMouseEvent(const Napi::CallbackInfo& info);
  Napi::Value PostUnoCommand(const Napi::CallbackInfo& info);
  Napi::Value SetTextSelection(const Napi::CallbackInfo& info);
  Napi::Value GetTextSelection(const Napi::CallbackInfo& info);
  Napi::Value ResetSelection(const Napi::CallbackInfo& info);
  Napi::Value PostWindowKeyEvent(const Napi::CallbackInfo& info);
  Napi::Value SendDialogEvent(const Napi::CallbackInfo& info);
  Napi::Value PostWindowExtTextInputEvent(const Napi::CallbackInfo& info);
  Napi::Value PostWindowMouseEvent(const Napi::CallbackInfo& info);
  Napi::Value SendContentControlEvent(const Napi::CallbackInfo& info);
  // input-fence.cc
  Napi::Value PostInputFence(const Napi::CallbackInfo& info);
  // document-views.cc
  Napi::Value CreateView(const Napi::CallbackInfo& info);
  Napi::Value DestroyView(const Napi::CallbackInfo& info);
  Napi::Value SetView(const Napi::CallbackInfo& info);
  Napi::Value GetView(const Napi::CallbackInfo& info);
  Napi::Value GetViewsCount(const Napi::CallbackInfo& info);
  Napi::Value SetClientVisibleArea(const Napi::CallbackInfo& info);
  Napi::Value SetClientZoom(const Napi::CallbackInfo& info);
  Napi::Value SetViewReadOnly(const Napi::CallbackInfo& info);
  Napi::Value SetAllowChangeComments(const Napi::CallbackInfo& info);
  Napi::Value SetViewTimezone(const Napi::CallbackInfo& info);
  Napi::Value SetViewOption(const Napi::CallbackInfo& info);
  // document-clipboard.cc
  Napi::Value GetClipboard(const Napi::CallbackInfo& info);
  Napi::Value SetClipboard(const Napi::CallbackInfo& info);
  Napi::Value Paste(const Napi::CallbackInfo& info);
  // document-sign.cc
  Napi::Value InsertCertificate(const Napi::CallbackInfo& info);
  Napi::Value AddCertificate(const Napi::CallbackInfo& info);
  Napi::Value GetSignatureState(const Napi::CallbackInfo& info);
  // document-slideshow.cc
  Napi::Value GetPresentationInfo(const Napi::CallbackInfo& info);
  Napi::Value CreateSlideRenderer(const Napi::CallbackInfo& info);
  Napi::Value RenderNextSlideLayer(const Napi::CallbackInfo& info);
  Napi::Value PostSlideshowCleanup(const Napi::CallbackInfo& info);

  OfficeCore* core_ = nullptr;
  Napi::ObjectReference office_;  // keeps the JS office alive while the document is
  LibreOfficeKitDocument* doc_ = nullptr;
  bool destroyed_ = false;
  int inFlight_ = 0;
  unsigned slideWidth_ = 0, slideHeight_ = 0;  // px size of the prepared slide renderer (0: none)
  // Every queue handed to registerCallback; closed only when the document is destroyed, because
  // LibreOffice may still hold a replaced view's pointer until then.
  std::vector<CallbackQueue*> queues_;
};

}  // namespace ode
