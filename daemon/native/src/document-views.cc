// Views (one per editing session), the client's visible area and zoom, and the per-view modes of LibreOffice 25.2
// (read-only, comments-only, time zone, view options).
#include "args.h"
#include "document.h"
#include "optional-calls.h"

namespace ode {

// createView(options?) -> view id. With options (LOK 7.4 and later: "Language=de-DE,DeviceFormFactor=desktop"), uses
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

namespace ode {

// setViewReadOnly(viewId, readOnly): that view may not change the document; the others may (lok::Document::
// setViewReadOnly). Optional call.
Napi::Value Document::SetViewReadOnly(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LibreOfficeKitDocument* d = Live(env);
  ODE_REQUIRE_DOCUMENT(env, d, setViewReadOnly);
  d->pClass->setViewReadOnly(d, IntArg(info, 0, "viewId"), BoolArg(info, 1, true));
  return env.Undefined();
}

// setAllowChangeComments(viewId, allow): in a read-only view, comments may still be added, edited and deleted
// (lok::Document::setAllowChangeComments). Optional call.
Napi::Value Document::SetAllowChangeComments(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LibreOfficeKitDocument* d = Live(env);
  ODE_REQUIRE_DOCUMENT(env, d, setAllowChangeComments);
  d->pClass->setAllowChangeComments(d, IntArg(info, 0, "viewId"), BoolArg(info, 1, true));
  return env.Undefined();
}

// setViewTimezone(viewId, timezone): the view's IANA time zone (e.g. "Europe/Paris"; lok::Document::setViewTimezone;
// in 25.2 only Calc's Insert Current Time / Date reads it, docs/editing.md). Optional call.
Napi::Value Document::SetViewTimezone(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LibreOfficeKitDocument* d = Live(env);
  ODE_REQUIRE_DOCUMENT(env, d, setViewTimezone);
  int viewId = IntArg(info, 0, "viewId");
  std::string timezone = StringArg(info, 1, "timezone");
  d->pClass->setViewTimezone(d, viewId, timezone.c_str());
  return env.Undefined();
}

// setViewOption(option, value): a per-view option of the current view (lok::Document::setViewOption; 25.2
// knows e.g. "ColorSchemeName", "A11yCheckDeck"...). Optional call.
Napi::Value Document::SetViewOption(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LibreOfficeKitDocument* d = Live(env);
  ODE_REQUIRE_DOCUMENT(env, d, setViewOption);
  std::string option = StringArg(info, 0, "option");
  std::string value = StringArg(info, 1, "value");
  d->pClass->setViewOption(d, option.c_str(), value.c_str());
  return env.Undefined();
}

}  // namespace ode
