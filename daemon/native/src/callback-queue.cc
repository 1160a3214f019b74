#include "callback-queue.h"

#include <memory>

namespace ode {

CallbackQueue* CallbackQueue::Create(Napi::Env env, Napi::Function fn, const char* resourceName) {
  auto* self = new CallbackQueue();
  // maxQueueSize 0 = unbounded: a full queue would make NonBlockingCall drop events.
  self->tsfn_ = Tsfn::New(env, fn, resourceName, 0, 1, self,
                          [](Napi::Env, void*, CallbackQueue* ctx) { delete ctx; });
  self->tsfn_.Unref(env);
  return self;
}

void CallbackQueue::Trampoline(int type, const char* payload, void* data) {
  static_cast<CallbackQueue*>(data)->Push(type, payload);
}

void CallbackQueue::Push(int type, const char* payload) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_) return;
  auto* event = new LokEvent{type, payload ? std::string(payload) : std::string()};
  if (tsfn_.NonBlockingCall(event) != napi_ok) delete event;  // napi_closing: environment going away
}

void CallbackQueue::Close() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_) return;
  closed_ = true;
  tsfn_.Release();
}

void CallbackQueue::CallJs(Napi::Env env, Napi::Function fn, CallbackQueue*, LokEvent* raw) {
  std::unique_ptr<LokEvent> event(raw);
  if (env == nullptr || fn.IsEmpty()) return;  // environment tearing down: drop
  // Raw Node-API calls, no C++ exceptions: events still queued while the process exits can no longer run
  // JS, and a C++ exception thrown then would terminate the process.
  napi_value argv[2];
  napi_value recv;
  napi_value result;
  if (napi_create_int32(env, event->type, &argv[0]) != napi_ok) return;
  if (napi_create_string_utf8(env, event->payload.data(), event->payload.size(), &argv[1]) != napi_ok) return;
  if (napi_get_undefined(env, &recv) != napi_ok) return;
  // If the listener throws, the exception stays pending and Node reports it as uncaught.
  napi_call_function(env, recv, fn, 2, argv, &result);
}

}  // namespace ode
