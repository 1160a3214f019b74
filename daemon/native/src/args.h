// Argument readers for native entry points. The facade (index.ts) validates shapes and ranges with
// readable messages; these checks only keep a bad call from the JS side from reaching LibreOffice.
#pragma once

#include <napi.h>

#include <cstdint>
#include <optional>
#include <string>

#include "errors.h"

namespace ode {

inline int32_t IntArg(const Napi::CallbackInfo& info, size_t i, const char* name) {
  if (i >= info.Length() || !info[i].IsNumber()) {
    ThrowError(info.Env(), code::kInvalidArgument, std::string(name) + " must be a number");
  }
  return info[i].As<Napi::Number>().Int32Value();
}

inline bool BoolArg(const Napi::CallbackInfo& info, size_t i, bool fallback) {
  if (i >= info.Length() || info[i].IsUndefined() || info[i].IsNull()) return fallback;
  return info[i].ToBoolean().Value();
}

inline std::string StringArg(const Napi::CallbackInfo& info, size_t i, const char* name) {
  if (i >= info.Length() || !info[i].IsString()) {
    ThrowError(info.Env(), code::kInvalidArgument, std::string(name) + " must be a string");
  }
  return info[i].As<Napi::String>().Utf8Value();
}

// undefined / null -> nullopt.
inline std::optional<std::string> OptionalStringArg(const Napi::CallbackInfo& info, size_t i,
                                                    const char* name) {
  if (i >= info.Length() || info[i].IsUndefined() || info[i].IsNull()) return std::nullopt;
  return StringArg(info, i, name);
}

inline Napi::Function FunctionArg(const Napi::CallbackInfo& info, size_t i, const char* name) {
  if (i >= info.Length() || !info[i].IsFunction()) {
    ThrowError(info.Env(), code::kInvalidArgument, std::string(name) + " must be a function");
  }
  return info[i].As<Napi::Function>();
}

inline Napi::Buffer<uint8_t> BufferArg(const Napi::CallbackInfo& info, size_t i, const char* name) {
  if (i >= info.Length() || !info[i].IsBuffer()) {
    ThrowError(info.Env(), code::kInvalidArgument, std::string(name) + " must be a Buffer");
  }
  return info[i].As<Napi::Buffer<uint8_t>>();
}

// Width/height of a pixel buffer: 1..16384 each, so w*h*4 stays well inside size_t and memory.
inline int32_t PixelSizeArg(const Napi::CallbackInfo& info, size_t i, const char* name) {
  int32_t v = IntArg(info, i, name);
  if (v < 1 || v > 16384) {
    ThrowError(info.Env(), code::kInvalidArgument, std::string(name) + " must be 1..16384 px");
  }
  return v;
}

}  // namespace ode
