// Events, UNO commands and text selection: fast synchronous calls. Key and mouse events are queued by
// LibreOffice and processed on its main thread; their effects arrive as callbacks.
#include "args.h"
#include "document.h"
#include "optional-calls.h"

namespace ode {

// postKeyEvent(type, charCode, keyCode)
Napi::Value Document::PostKeyEvent(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  d->pClass->postKeyEvent(d, IntArg(info, 0, "type"), IntArg(info, 1, "charCode"),
                          IntArg(info, 2, "keyCode"));
  return info.Env().Undefined();
}

// postMouseEvent(type, x, y, count, buttons, modifier); x, y in twips.
Napi::Value Document::PostMouseEvent(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  d->pClass->postMouseEvent(d, IntArg(info, 0, "type"), IntArg(info, 1, "x"), IntArg(info, 2, "y"),
                            IntArg(info, 3, "count"), IntArg(info, 4, "buttons"),
                            IntArg(info, 5, "modifier"));
  return info.Env().Undefined();
}

// postUnoCommand(command, args?: JSON string, notifyWhenFinished?: boolean)
Napi::Value Document::PostUnoCommand(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  std::string command = StringArg(info, 0, "command");
  std::optional<std::string> args = OptionalStringArg(info, 1, "args");
  bool notify = BoolArg(info, 2, false);
  d->pClass->postUnoCommand(d, command.c_str(), args ? args->c_str() : nullptr, notify);
  return info.Env().Undefined();
}

// setTextSelection(type, x, y); x, y in twips.
Napi::Value Document::SetTextSelection(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  d->pClass->setTextSelection(d, IntArg(info, 0, "type"), IntArg(info, 1, "x"),
                              IntArg(info, 2, "y"));
  return info.Env().Undefined();
}

// getTextSelection(mimeType) -> { text, usedMimeType }
Napi::Value Document::GetTextSelection(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  std::string mimeType = StringArg(info, 0, "mimeType");
  char* used = nullptr;
  std::string text = TakeLokString(d->pClass->getTextSelection(d, mimeType.c_str(), &used));
  Napi::Object out = Napi::Object::New(info.Env());
  out.Set("text", Napi::String::New(info.Env(), text));
  out.Set("usedMimeType", Napi::String::New(info.Env(), TakeLokString(used)));
  return out;
}

Napi::Value Document::ResetSelection(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  d->pClass->resetSelection(d);
  return info.Env().Undefined();
}

// postWindowKeyEvent(windowId, type, charCode, keyCode)
Napi::Value Document::PostWindowKeyEvent(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  d->pClass->postWindowKeyEvent(d, static_cast<unsigned>(IntArg(info, 0, "windowId")),
                                IntArg(info, 1, "type"), IntArg(info, 2, "charCode"),
                                IntArg(info, 3, "keyCode"));
  return info.Env().Undefined();
}

// postWindowExtTextInputEvent(windowId, type, text): IME text (LOK_EXT_TEXTINPUT pre-edit, LOK_EXT_TEXTINPUT_END
// commit); window 0 is the document's own window.
Napi::Value Document::PostWindowExtTextInputEvent(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  std::string text = StringArg(info, 2, "text");
  d->pClass->postWindowExtTextInputEvent(d, static_cast<unsigned>(IntArg(info, 0, "windowId")),
                                         IntArg(info, 1, "type"), text.c_str());
  return info.Env().Undefined();
}

// postWindowMouseEvent(windowId, type, x, y, count, buttons, modifier); x, y in window pixels.
Napi::Value Document::PostWindowMouseEvent(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  d->pClass->postWindowMouseEvent(d, static_cast<unsigned>(IntArg(info, 0, "windowId")),
                                  IntArg(info, 1, "type"), IntArg(info, 2, "x"),
                                  IntArg(info, 3, "y"), IntArg(info, 4, "count"),
                                  IntArg(info, 5, "buttons"), IntArg(info, 6, "modifier"));
  return info.Env().Undefined();
}

// sendDialogEvent(windowId, json): an event on a JSDialog widget (lok::Document::sendDialogEvent), `json` as
// LibreOffice's jsdialog executor reads it: {"id": widget, "cmd": "change"|"click"|..., "data": ..., "type": ...}.
// The window id is the JSDialog's `id` (a LOK window id, a small integer in practice; taken as a double so ids
// above 2^31 still pass).
Napi::Value Document::SendDialogEvent(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LibreOfficeKitDocument* d = Live(env);
  if (info.Length() < 1 || !info[0].IsNumber()) ThrowError(env, code::kInvalidArgument, "windowId must be a number");
  double id = info[0].As<Napi::Number>().DoubleValue();
  std::string args = StringArg(info, 1, "arguments");
  d->pClass->sendDialogEvent(d, static_cast<unsigned long long>(id), args.c_str());
  return env.Undefined();
}

}  // namespace ode

namespace ode {

// sendContentControlEvent(json): acts on the content control at the cursor (lok::Document::
// sendContentControlEvent; e.g. {"type":"drop-down","selected":"1"}). The facade checks the JSON. Optional call.
Napi::Value Document::SendContentControlEvent(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LibreOfficeKitDocument* d = Live(env);
  ODE_REQUIRE_DOCUMENT(env, d, sendContentControlEvent);
  std::string args = StringArg(info, 0, "arguments");
  d->pClass->sendContentControlEvent(d, args.c_str());
  return env.Undefined();
}

}  // namespace ode
