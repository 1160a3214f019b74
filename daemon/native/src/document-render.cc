// paintTile / paintPartTile (async, libuv pool), paintWindow and renderFont (sync). Buffers are width*height*4
// bytes, BGRA premultiplied alpha, top-down rows (LibreOffice's tile mode LOK_TILEMODE_BGRA on Linux).
#include <cstdlib>
#include <cstring>
#include <memory>

#include "args.h"
#include "document.h"
#include "promise-worker.h"

namespace ode {
namespace {

struct TileRequest {
  int part = -1;  // -1: paintTile (current part); otherwise paintPartTile
  int mode = -1;  // -1: leave the part mode alone
  int editMode = 0;  // paintPartTile's nMode: Impress' edit mode, 0 normal view, 1 master pages
  int canvasWidth = 0, canvasHeight = 0;       // px
  int tilePosX = 0, tilePosY = 0;              // twips
  int tileWidth = 0, tileHeight = 0;           // twips
};

class PaintWorker : public PromiseWorker {
 public:
  PaintWorker(Napi::Env env, Document* doc, Napi::Object docObject, LibreOfficeKitDocument* d,
              TileRequest req)
      : PromiseWorker(env, "ode-lok-paintTile"),
        doc_(doc),
        docObject_(Napi::Persistent(docObject)),
        d_(d),
        req_(req),
        size_(static_cast<size_t>(req.canvasWidth) * static_cast<size_t>(req.canvasHeight) * 4) {}

  ~PaintWorker() override { delete[] pixels_; }

  void Execute() override {
    pixels_ = new (std::nothrow) unsigned char[size_];
    if (!pixels_) {
      Fail(code::kCallFailed, "paintTile: cannot allocate " + std::to_string(size_) + " bytes");
      return;
    }
    std::memset(pixels_, 0, size_);
    if (req_.part < 0) {
      d_->pClass->paintTile(d_, pixels_, req_.canvasWidth, req_.canvasHeight, req_.tilePosX,
                            req_.tilePosY, req_.tileWidth, req_.tileHeight);
    } else {
      // paintPartTile's own nMode argument (LibreOffice >= 24.2's header) is Impress' edit mode, 0 = normal view,
      // 1 = master pages. A requested part mode (LOK_PARTMODE_*, e.g. notes) is set on the view; LibreOffice 25.2's
      // paintPartTile then still paints the slide (measured: notes tile == slide tile), while paintTile of the
      // current part honours it. So with a part mode: make the part current, paintTile, and put the part back.
      if (req_.mode >= 0) {
        d_->pClass->setPartMode(d_, req_.mode);
        int previous = d_->pClass->getPart(d_);
        if (previous != req_.part) d_->pClass->setPart(d_, req_.part);
        d_->pClass->paintTile(d_, pixels_, req_.canvasWidth, req_.canvasHeight, req_.tilePosX, req_.tilePosY,
                              req_.tileWidth, req_.tileHeight);
        if (previous != req_.part) d_->pClass->setPart(d_, previous);
      } else {
        d_->pClass->paintPartTile(d_, pixels_, req_.part, req_.editMode, req_.canvasWidth, req_.canvasHeight,
                                  req_.tilePosX, req_.tilePosY, req_.tileWidth, req_.tileHeight);
      }
    }
  }

 private:
  void Settle() override { doc_->EndAsync(); }

  Napi::Value Result() override {
    unsigned char* data = pixels_;
    pixels_ = nullptr;  // the Buffer owns it now
    return Napi::Buffer<unsigned char>::New(Env(), data, size_,
                                            [](Napi::Env, unsigned char* p) { delete[] p; });
  }

  Document* doc_;
  Napi::ObjectReference docObject_;  // keeps the document alive while painting
  LibreOfficeKitDocument* d_;
  TileRequest req_;
  size_t size_;
  unsigned char* pixels_ = nullptr;
};

// Reads { canvasWidth, canvasHeight, tilePosX, tilePosY, tileWidth, tileHeight } from positional
// arguments starting at `first`.
TileRequest ReadTile(const Napi::CallbackInfo& info, size_t first) {
  TileRequest r;
  r.canvasWidth = PixelSizeArg(info, first, "canvasWidth");
  r.canvasHeight = PixelSizeArg(info, first + 1, "canvasHeight");
  r.tilePosX = IntArg(info, first + 2, "tilePosX");
  r.tilePosY = IntArg(info, first + 3, "tilePosY");
  r.tileWidth = IntArg(info, first + 4, "tileWidth");
  r.tileHeight = IntArg(info, first + 5, "tileHeight");
  if (r.tileWidth < 1 || r.tileHeight < 1) {
    ThrowError(info.Env(), code::kInvalidArgument, "tileWidth and tileHeight must be >= 1 twip");
  }
  return r;
}

}  // namespace

// paintTile(canvasWidth, canvasHeight, tilePosX, tilePosY, tileWidth, tileHeight) -> Promise<Buffer>
Napi::Value Document::PaintTile(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  TileRequest req = ReadTile(info, 0);
  auto* worker = new PaintWorker(info.Env(), this, Value(), d, req);
  BeginAsync();
  worker->Queue();
  return worker->Promise();
}

// paintPartTile(part, mode (-1 = unchanged), editMode (0 normal, 1 master), canvasWidth, canvasHeight, tilePosX,
// tilePosY, tileWidth, tileHeight) -> Promise<Buffer>
Napi::Value Document::PaintPartTile(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  int part = IntArg(info, 0, "part");
  int mode = IntArg(info, 1, "mode");
  int editMode = IntArg(info, 2, "editMode");
  if (part < 0) ThrowError(info.Env(), code::kInvalidArgument, "part must be >= 0");
  if (editMode < 0 || editMode > 1) ThrowError(info.Env(), code::kInvalidArgument, "editMode must be 0 or 1");
  TileRequest req = ReadTile(info, 3);
  req.part = part;
  req.mode = mode;
  req.editMode = editMode;
  auto* worker = new PaintWorker(info.Env(), this, Value(), d, req);
  BeginAsync();
  worker->Queue();
  return worker->Promise();
}

// paintWindow(windowId, x, y, width, height) -> Buffer (sync: dialog windows are small).
Napi::Value Document::PaintWindow(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  unsigned windowId = static_cast<unsigned>(IntArg(info, 0, "windowId"));
  int x = IntArg(info, 1, "x");
  int y = IntArg(info, 2, "y");
  int width = PixelSizeArg(info, 3, "width");
  int height = PixelSizeArg(info, 4, "height");
  Napi::Buffer<unsigned char> out = Napi::Buffer<unsigned char>::New(
      info.Env(), static_cast<size_t>(width) * static_cast<size_t>(height) * 4);
  std::memset(out.Data(), 0, out.Length());
  d->pClass->paintWindow(d, windowId, out.Data(), x, y, width, height);
  return out;
}

// renderFont(fontName, text, width, height, orientation) -> { width, height, data } (sync; LOK's
// renderFontOrientation). Given a width x height px box (both > 0), LibreOffice scales the text to fit it and
// returns a buffer of exactly that size; with 0 x 0 it returns the text's natural size. `orientation` is in tenths
// of a degree (450: diagonal). The buffer is RGBA, 4 bytes a pixel: colour channels 0, the text's coverage in
// alpha. An unknown font name falls back to LibreOffice's default font. Throws call_failed when LibreOffice
// renders nothing (empty text).
Napi::Value Document::RenderFont(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  std::string fontName = StringArg(info, 0, "fontName");
  std::string text = StringArg(info, 1, "text");
  int width = IntArg(info, 2, "width");
  int height = IntArg(info, 3, "height");
  int orientation = IntArg(info, 4, "orientation");
  if (width < 0 || height < 0 || width > 16384 || height > 16384) {
    ThrowError(info.Env(), code::kInvalidArgument, "width and height must be 0..16384 px");
  }
  unsigned char* pixels = d->pClass->renderFontOrientation
                              ? d->pClass->renderFontOrientation(d, fontName.c_str(), text.c_str(),
                                                                 &width, &height, orientation)
                              : d->pClass->renderFont(d, fontName.c_str(), text.c_str(), &width, &height);
  if (!pixels || width <= 0 || height <= 0) {
    std::free(pixels);
    ThrowError(info.Env(), code::kCallFailed, "renderFont: LibreOffice rendered nothing");
  }
  size_t size = static_cast<size_t>(width) * static_cast<size_t>(height) * 4;
  Napi::Buffer<unsigned char> data = Napi::Buffer<unsigned char>::Copy(info.Env(), pixels, size);
  std::free(pixels);
  Napi::Object out = Napi::Object::New(info.Env());
  out.Set("width", Napi::Number::New(info.Env(), width));
  out.Set("height", Napi::Number::New(info.Env(), height));
  out.Set("data", data);
  return out;
}

// postWindow(windowId, action): LOK_WINDOW_CLOSE closes a dialog as its Cancel would; LOK_WINDOW_PASTE is not
// used here.
Napi::Value Document::PostWindow(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  d->pClass->postWindow(d, static_cast<unsigned>(IntArg(info, 0, "windowId")), IntArg(info, 1, "action"),
                        nullptr);
  return info.Env().Undefined();
}

}  // namespace ode
