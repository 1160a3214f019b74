// Errors thrown or rejected by the addon: JS Errors with a stable `code` property. The facade hands its
// own error class (LokError in errors.ts) to the addon at load time (better-sqlite3 style), so C++ throws
// the project's class; before that, a plain Error with `code` is used.
#pragma once

#include <napi.h>

#include <string>

namespace ode {

// Stable error codes; kept in sync with LokErrorCode in errors.ts.
namespace code {
inline constexpr const char* kDestroyed = "destroyed";            // call on a destroyed office/document
inline constexpr const char* kBusy = "busy";                      // destroy while an async call is in flight
inline constexpr const char* kInvalidArgument = "invalid_argument";
inline constexpr const char* kAlreadyInitialized = "already_initialized";  // second Office in a process
inline constexpr const char* kInitFailed = "init_failed";         // lok_init_2 returned NULL
inline constexpr const char* kLoadFailed = "load_failed";
inline constexpr const char* kPasswordRequired = "password_required";
inline constexpr const char* kPasswordInvalid = "password_invalid";
inline constexpr const char* kSaveFailed = "save_failed";
inline constexpr const char* kCallFailed = "call_failed";         // a LOK call reported failure
inline constexpr const char* kUnsupported = "unsupported";         // this LibreOffice lacks an optional call
}  // namespace code

// Registers the constructor used for every error: new ErrorClass(message, code).
void SetErrorClass(Napi::Env env, Napi::Function ctor);

// Builds an error object with the given code.
Napi::Error MakeError(Napi::Env env, const char* code, const std::string& message);

// Throws (as a C++ exception that node-addon-api turns into a JS exception) an error with `code`.
[[noreturn]] void ThrowError(Napi::Env env, const char* code, const std::string& message);

}  // namespace ode
