#include "errors.h"

#include "addon-data.h"

namespace ode {

void SetErrorClass(Napi::Env env, Napi::Function ctor) {
  GetAddonData(env)->errorClass = Napi::Persistent(ctor);
}

Napi::Error MakeError(Napi::Env env, const char* code, const std::string& message) {
  AddonData* data = GetAddonData(env);
  if (!data->errorClass.IsEmpty()) {
    Napi::Object err =
        data->errorClass.New({Napi::String::New(env, message), Napi::String::New(env, code)});
    return Napi::Error(env, err);
  }
  Napi::Error err = Napi::Error::New(env, message);
  err.Set("code", Napi::String::New(env, code));
  return err;
}

void ThrowError(Napi::Env env, const char* code, const std::string& message) {
  throw MakeError(env, code, message);
}

}  // namespace ode
