// Carries LibreOfficeKit callbacks from LibreOffice's threads to a JS function.
//
// Why: LibreOffice calls callbacks from its own threads (its main thread for document callbacks, the
// loading or an import thread for office callbacks) while holding its global Solar mutex. A callback
// that waited for the JS thread would deadlock as soon as JS makes a LOK call. So Push() only copies the
// payload and queues it on a Napi::ThreadSafeFunction with NonBlockingCall (unbounded queue); it never
// blocks and never calls into JS.
#pragma once

#include <napi.h>

#include <mutex>
#include <string>

namespace ode {

struct LokEvent {
  int type;
  std::string payload;
};

class CallbackQueue {
 public:
  // Creates a queue delivering (type: number, payload: string) to `fn` on the JS thread. The queue does
  // not keep the event loop alive (unref'd): the owner's IPC does. Owned by its thread-safe function:
  // it deletes itself after Close() once the queued events are delivered.
  static CallbackQueue* Create(Napi::Env env, Napi::Function fn, const char* resourceName);

  // A LibreOfficeKitCallback: `data` is the CallbackQueue*. Safe on any thread; never blocks.
  static void Trampoline(int type, const char* payload, void* data);

  // Copies and queues one event. Ignored after Close(). Any thread.
  void Push(int type, const char* payload);

  // Stops delivery of later pushes and releases the thread-safe function (events already queued are
  // still delivered). JS thread only; idempotent. Call only when LibreOffice can no longer call
  // Trampoline with this queue (after the document or office is destroyed, or the callback replaced).
  void Close();

 private:
  CallbackQueue() = default;
  static void CallJs(Napi::Env env, Napi::Function fn, CallbackQueue* self, LokEvent* event);
  using Tsfn = Napi::TypedThreadSafeFunction<CallbackQueue, LokEvent, CallbackQueue::CallJs>;

  std::mutex mutex_;  // orders Push against Close, so no call reaches a released function
  bool closed_ = false;
  Tsfn tsfn_;
};

}  // namespace ode
