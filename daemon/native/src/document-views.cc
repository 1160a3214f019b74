// Views (one per editing session) and the client's visible area and zoom.
#include "args.h"
#include "document.h"

namespace ode {

// createView(options?) -> view id. With options (LOK 7.4: "Language=de-DE,DeviceFormFactor=desktop"), uses
// createViewWithOptions. The new view becomes the current one.
Napi::Value Document::CreateView(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  std::optional<std::string> options = OptionalStringArg(info, 0, "options");
  int id = options ? d->pClass->createViewWithOptions(d, options->c_str()) : d->pClass->createView(d);
  if (id < 0) ThrowError(info.Env(), code::kCallFailed, "createView failed");
  return Napi::Number::New(info.Env(), id);
}

Napi::Value Document::DestroyView(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  d->pClass->destroyView(d, IntArg(info, 0, "viewId"));
  return info.Env().Undefined();
}

Napi::Value Document::SetView(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  d->pClass->setView(d, IntArg(info, 0, "viewId"));
  return info.Env().Undefined();
}

Napi::Value Document::GetView(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  return Napi::Number::New(info.Env(), d->pClass->getView(d));
}

Napi::Value Document::GetViewsCount(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  return Napi::Number::New(info.Env(), d->pClass->getViewsCount(d));
}

// setClientVisibleArea(x, y, width, height), twips.
Napi::Value Document::SetClientVisibleArea(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  d->pClass->setClientVisibleArea(d, IntArg(info, 0, "x"), IntArg(info, 1, "y"),
                                  IntArg(info, 2, "width"), IntArg(info, 3, "height"));
  return info.Env().Undefined();
}

// setClientZoom(tilePixelWidth, tilePixelHeight, tileTwipWidth, tileTwipHeight)
Napi::Value Document::SetClientZoom(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  d->pClass->setClientZoom(d, IntArg(info, 0, "tilePixelWidth"), IntArg(info, 1, "tilePixelHeight"),
                           IntArg(info, 2, "tileTwipWidth"), IntArg(info, 3, "tileTwipHeight"));
  return info.Env().Undefined();
}

}  // namespace ode
