// Calls LibreOfficeKit added after 7.4, detected the LOK way: each class starts with its size (`nSize`), and a
// member exists when its offset lies below that size (LIBREOFFICEKIT_HAS_MEMBER in LibreOfficeKit.h). LOK only ever
// appends members, so a later LibreOffice keeps every offset we were built with and simply reports a bigger
// nSize; an older one reports a smaller nSize and the call is absent. A member present but NULL counts as absent.
//
// The tables name the calls (as in the header) for optionalCalls(); Require*() throws `unsupported` before an
// absent call would be made through a pointer LibreOffice never set.
#pragma once

#include <napi.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "errors.h"
#include "lok.h"

namespace ode {

struct OptionalCall {
  const char* name;
  size_t offset;
};

#define ODE_OFFICE_CALL(member) OptionalCall{#member, offsetof(LibreOfficeKitClass, member)}
#define ODE_DOCUMENT_CALL(member) OptionalCall{#member, offsetof(LibreOfficeKitDocumentClass, member)}

// lok::Office calls the addon uses that 7.4 did not have (or that LibreOffice may leave NULL).
inline const std::vector<OptionalCall>& OfficeOptionalCalls() {
  static const std::vector<OptionalCall> calls = {
      ODE_OFFICE_CALL(setOption),
      ODE_OFFICE_CALL(extractRequest),
      ODE_OFFICE_CALL(trimMemory),
      ODE_OFFICE_CALL(extractDocumentStructureRequest),
  };
  return calls;
}

// lok::Document calls the addon uses that 7.4 did not have.
inline const std::vector<OptionalCall>& DocumentOptionalCalls() {
  static const std::vector<OptionalCall> calls = {
      ODE_DOCUMENT_CALL(sendContentControlEvent),
      ODE_DOCUMENT_CALL(getEditMode),
      ODE_DOCUMENT_CALL(setViewTimezone),
      ODE_DOCUMENT_CALL(setViewReadOnly),
      ODE_DOCUMENT_CALL(setAllowChangeComments),
      ODE_DOCUMENT_CALL(getPresentationInfo),
      ODE_DOCUMENT_CALL(createSlideRenderer),
      ODE_DOCUMENT_CALL(postSlideshowCleanup),
      ODE_DOCUMENT_CALL(renderNextSlideLayer),
      ODE_DOCUMENT_CALL(setViewOption),
  };
  return calls;
}

// True when the class (LibreOfficeKitClass or LibreOfficeKitDocumentClass) has a non-NULL function pointer at
// `offset`: the whole pointer lies inside nSize.
template <typename Class>
bool HasCall(const Class* cls, size_t offset) {
  if (!cls || offset + sizeof(void*) > cls->nSize) return false;
  void* fn = nullptr;
  std::memcpy(&fn, reinterpret_cast<const char*>(cls) + offset, sizeof fn);
  return fn != nullptr;
}

// Names of the calls of `table` the class has, as a JS array.
template <typename Class>
Napi::Array PresentCalls(Napi::Env env, const Class* cls, const std::vector<OptionalCall>& table) {
  Napi::Array out = Napi::Array::New(env);
  uint32_t i = 0;
  for (const OptionalCall& call : table) {
    if (HasCall(cls, call.offset)) out.Set(i++, Napi::String::New(env, call.name));
  }
  return out;
}

// Throws `unsupported` unless the class has the call. `owner` is "lok::Office" or "lok::Document".
template <typename Class>
void RequireCall(Napi::Env env, const Class* cls, size_t offset, const char* owner, const char* name) {
  if (HasCall(cls, offset)) return;
  ThrowError(env, code::kUnsupported,
             std::string("this LibreOffice has no ") + owner + "::" + name + " (its LibreOfficeKit class is " +
                 std::to_string(cls ? cls->nSize : 0) +
                 " bytes): install LibreOffice 25.2 or later (node scripts/setup.mjs)");
}

#define ODE_REQUIRE_OFFICE(env, kit, member) \
  RequireCall((env), (kit)->pClass, offsetof(LibreOfficeKitClass, member), "lok::Office", #member)
#define ODE_REQUIRE_DOCUMENT(env, doc, member) \
  RequireCall((env), (doc)->pClass, offsetof(LibreOfficeKitDocumentClass, member), "lok::Document", #member)

}  // namespace ode
