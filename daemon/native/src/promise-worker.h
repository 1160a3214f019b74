// Base of the slow calls (documentLoad, saveAs, paintTile, paintPartTile): Execute() runs on the libuv
// thread pool, off the JS thread, and the result settles a Promise on the JS thread. A failure carries
// one of the codes in errors.h; its message includes LibreOffice's getError() text where there is one.
#pragma once

#include <napi.h>

#include <string>

#include "errors.h"

namespace ode {

class PromiseWorker : public Napi::AsyncWorker {
 public:
  PromiseWorker(Napi::Env env, const char* resourceName)
      : Napi::AsyncWorker(env, resourceName), deferred_(Napi::Promise::Deferred::New(env)) {}

  Napi::Promise Promise() const { return deferred_.Promise(); }

 protected:
  // Worker thread: marks the call failed with `code`.
  void Fail(const char* code, const std::string& message) {
    code_ = code;
    SetError(message);
  }

  // JS thread, before the promise settles either way: release in-flight marks.
  virtual void Settle() {}
  // JS thread, on success: the resolution value.
  virtual Napi::Value Result() { return Env().Undefined(); }

 private:
  void OnOK() final {
    Settle();
    try {
      deferred_.Resolve(Result());
    } catch (const Napi::Error& error) {  // building the result failed: reject, not crash
      deferred_.Reject(error.Value());
    }
  }
  void OnError(const Napi::Error& error) final {
    Settle();
    deferred_.Reject(MakeError(Env(), code_, error.Message()).Value());
  }

  Napi::Promise::Deferred deferred_;
  const char* code_ = code::kCallFailed;
};

}  // namespace ode
