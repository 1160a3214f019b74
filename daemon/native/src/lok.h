// The one place the LibreOfficeKit headers are pulled in, with the unstable API switched on (everything
// after getDocumentType in the document class needs it). LibreOfficeKitInit.h (lok_init_2) is included
// only by office.cc, because it defines static functions.
#pragma once

#ifndef LOK_USE_UNSTABLE_API
#define LOK_USE_UNSTABLE_API
#endif
#include <LibreOfficeKit/LibreOfficeKit.h>
#include <LibreOfficeKit/LibreOfficeKitEnums.h>

#include <cstdlib>
#include <string>

namespace ode {

// Takes ownership of a string LibreOfficeKit returned (allocated with malloc/strdup) and frees it.
// Returns "" for nullptr; `wasNull` tells the two apart where the API gives NULL a meaning.
inline std::string TakeLokString(char* s, bool* wasNull = nullptr) {
  if (wasNull) *wasNull = (s == nullptr);
  if (!s) return std::string();
  std::string out(s);
  std::free(s);
  return out;
}

}  // namespace ode
