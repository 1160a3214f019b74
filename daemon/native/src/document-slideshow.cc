// The slide renderer of LibreOffice 24.x+ (lok::Document::getPresentationInfo, createSlideRenderer,
// renderNextSlideLayer, postSlideshowCleanup), as Collabora's slideshow uses it: a presentation's slide is drawn
// as a sequence of layers (background, master page, each shape/animation step), each either a bitmap of the
// renderer's size or a JSON message. All optional calls, synchronous.
#include <cstring>

#include "args.h"
#include "document.h"
#include "optional-calls.h"

namespace ode {

// getPresentationInfo() -> string: LibreOffice's JSON of the slides (size, hidden, transitions, animations).
Napi::Value Document::GetPresentationInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LibreOfficeKitDocument* d = Live(env);
  ODE_REQUIRE_DOCUMENT(env, d, getPresentationInfo);
  bool wasNull = false;
  std::string out = TakeLokString(d->pClass->getPresentationInfo(d), &wasNull);
  if (wasNull) ThrowError(env, code::kCallFailed, "getPresentationInfo returned NULL (not a presentation?)");
  return Napi::String::New(env, out);
}

// createSlideRenderer(slide, width, height, renderBackground, renderMasterPage) -> { width, height }: prepares
// slide `slide` for renderNextSlideLayer in a box of width x height px; LibreOffice may shrink one side to keep
// the slide's aspect, and the answer is the size each bitmap layer will have. Throws call_failed when
// LibreOffice refuses (no such slide, not a presentation).
Napi::Value Document::CreateSlideRenderer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LibreOfficeKitDocument* d = Live(env);
  ODE_REQUIRE_DOCUMENT(env, d, createSlideRenderer);
  int slide = IntArg(info, 0, "slide");
  unsigned width = static_cast<unsigned>(PixelSizeArg(info, 1, "width"));
  unsigned height = static_cast<unsigned>(PixelSizeArg(info, 2, "height"));
  bool background = BoolArg(info, 3, true);
  bool master = BoolArg(info, 4, true);
  if (!d->pClass->createSlideRenderer(d, slide, &width, &height, background, master) || width == 0 ||
      height == 0 || width > 16384 || height > 16384) {
    slideWidth_ = slideHeight_ = 0;
    ThrowError(env, code::kCallFailed, "createSlideRenderer failed for slide " + std::to_string(slide));
  }
  slideWidth_ = width;
  slideHeight_ = height;
  Napi::Object out = Napi::Object::New(env);
  out.Set("width", Napi::Number::New(env, width));
  out.Set("height", Napi::Number::New(env, height));
  return out;
}

// renderNextSlideLayer() -> { done, isBitmapLayer, message, pixels }: the next layer of the slide prepared by
// createSlideRenderer. `pixels` is a width*height*4 BGRA buffer of the renderer's size when the layer is a bitmap
// (null otherwise); `message` is LibreOffice's JSON describing the layer (or null); `done` is true when the slide
// has no more layers. Throws call_failed without a prepared renderer.
Napi::Value Document::RenderNextSlideLayer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LibreOfficeKitDocument* d = Live(env);
  ODE_REQUIRE_DOCUMENT(env, d, renderNextSlideLayer);
  if (slideWidth_ == 0 || slideHeight_ == 0) {
    ThrowError(env, code::kCallFailed, "renderNextSlideLayer: call createSlideRenderer first");
  }
  size_t size = static_cast<size_t>(slideWidth_) * slideHeight_ * 4;
  Napi::Buffer<unsigned char> pixels = Napi::Buffer<unsigned char>::New(env, size);
  std::memset(pixels.Data(), 0, size);
  bool isBitmap = false;
  char* message = nullptr;
  bool done = d->pClass->renderNextSlideLayer(d, pixels.Data(), &isBitmap, &message);
  bool noMessage = false;
  std::string text = TakeLokString(message, &noMessage);
  Napi::Object out = Napi::Object::New(env);
  out.Set("done", Napi::Boolean::New(env, done));
  out.Set("isBitmapLayer", Napi::Boolean::New(env, isBitmap));
  out.Set("message", noMessage ? env.Null() : Napi::String::New(env, text));
  out.Set("pixels", isBitmap ? Napi::Value(pixels) : env.Null());
  return out;
}

// postSlideshowCleanup(): frees what the slide renderer kept.
Napi::Value Document::PostSlideshowCleanup(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LibreOfficeKitDocument* d = Live(env);
  ODE_REQUIRE_DOCUMENT(env, d, postSlideshowCleanup);
  d->pClass->postSlideshowCleanup(d);
  slideWidth_ = slideHeight_ = 0;
  return env.Undefined();
}

}  // namespace ode
