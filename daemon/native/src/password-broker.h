// Answers LibreOffice's password questions during documentLoad, in C++, on whatever thread asks.
//
// With LOK_FEATURE_DOCUMENT_PASSWORD(_TO_MODIFY) on, LibreOffice's interaction handler calls the office
// callback with LOK_CALLBACK_DOCUMENT_PASSWORD(_TO_MODIFY) and the document URL, then blocks the loading
// thread until setDocumentPassword(url, password-or-NULL) is called. JS cannot be asked (the JS thread
// may be blocked on the Solar mutex), so the answer comes from the password given to documentLoad:
//   - the first PASSWORD question is answered with that password; a second question for the same load
//     means it was wrong: answer NULL (abort) and remember `invalid`;
//   - with no password, answer NULL and remember `required`;
//   - PASSWORD_TO_MODIFY: the password once if given, else NULL, which makes LibreOffice open the
//     document read-only (remembered as `readOnly`; not a failure).
#pragma once

#include "lok.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace ode {

enum class PasswordOutcome { kNone, kRequired, kInvalid };

struct PasswordResult {
  PasswordOutcome outcome = PasswordOutcome::kNone;
  bool readOnly = false;  // a password-to-modify was declined: the document is open read-only
  bool supplied = false;  // the given password was handed to LibreOffice at least once
};

class PasswordBroker {
 public:
  // Records a load of `url` about to start. Returns false when a load of the same URL is already in
  // flight (LibreOffice keys its password handlers by URL, so two concurrent loads of one URL clash).
  bool Begin(const std::string& url, std::optional<std::string> password);

  // Forgets the load and returns what happened to its password questions.
  PasswordResult End(const std::string& url);

  // Answers one question (type LOK_CALLBACK_DOCUMENT_PASSWORD or _TO_MODIFY). Always calls
  // setDocumentPassword exactly once, with the URL the load was started with, so the loading thread is
  // never left waiting. LibreOffice (7.4 and 25.2: passwords.test.ts) does not reliably report that URL: for a .doc the payload is
  // the bare file name ("PasswordProtected.doc"), and answering with anything but the load's own URL
  // crashes it (its handler map lookup is unchecked). So the load is found by, in order: the load
  // running on this thread, the exact URL, a unique URL ending in "/<payload>", the first load.
  void Answer(LibreOfficeKit* kit, int type, const char* payload);

  // While alive, marks the current thread as running the load of `url` (set by the load worker).
  class ThreadScope {
   public:
    explicit ThreadScope(const std::string& url);
    ~ThreadScope();
    ThreadScope(const ThreadScope&) = delete;
    ThreadScope& operator=(const ThreadScope&) = delete;
  };

 private:
  struct PendingLoad {
    std::optional<std::string> password;
    int passwordQuestions = 0;
    int modifyQuestions = 0;
    PasswordResult result;
  };

  std::map<std::string, PendingLoad>::iterator FindLoad(const std::string& payload);

  std::mutex mutex_;
  std::map<std::string, PendingLoad> loads_;
};

}  // namespace ode
