#include "password-broker.h"

namespace ode {
namespace {

// The URL of the documentLoad running on this thread, if any.
thread_local const std::string* t_loadingUrl = nullptr;

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

PasswordBroker::ThreadScope::ThreadScope(const std::string& url) { t_loadingUrl = &url; }
PasswordBroker::ThreadScope::~ThreadScope() { t_loadingUrl = nullptr; }

bool PasswordBroker::Begin(const std::string& url, std::optional<std::string> password) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (loads_.count(url)) return false;
  PendingLoad load;
  load.password = std::move(password);
  loads_.emplace(url, std::move(load));
  return true;
}

PasswordResult PasswordBroker::End(const std::string& url) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = loads_.find(url);
  if (it == loads_.end()) return PasswordResult{};
  PasswordResult result = it->second.result;
  loads_.erase(it);
  return result;
}

std::map<std::string, PasswordBroker::PendingLoad>::iterator PasswordBroker::FindLoad(
    const std::string& payload) {
  if (loads_.empty()) return loads_.end();
  if (t_loadingUrl) {
    auto it = loads_.find(*t_loadingUrl);
    if (it != loads_.end()) return it;
  }
  auto exact = loads_.find(payload);
  if (exact != loads_.end()) return exact;
  auto match = loads_.end();
  int matches = 0;
  for (auto it = loads_.begin(); it != loads_.end(); ++it) {
    if (!payload.empty() && EndsWith(it->first, "/" + payload)) {
      match = it;
      ++matches;
    }
  }
  if (matches == 1) return match;
  return loads_.begin();
}

void PasswordBroker::Answer(LibreOfficeKit* kit, int type, const char* payload) {
  std::string url;
  std::optional<std::string> answer;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = FindLoad(payload ? payload : "");
    if (it == loads_.end()) {
      // No load of ours is running: nothing to answer with. Cannot happen (every load goes through
      // Office.documentLoad); answering with an unknown URL would crash LibreOffice.
      return;
    }
    url = it->first;
    PendingLoad& load = it->second;
    if (type == LOK_CALLBACK_DOCUMENT_PASSWORD) {
      ++load.passwordQuestions;
      if (load.password && load.passwordQuestions == 1) {
        answer = load.password;
        load.result.supplied = true;
      } else {
        load.result.outcome = load.password ? PasswordOutcome::kInvalid : PasswordOutcome::kRequired;
      }
    } else {
      ++load.modifyQuestions;
      if (load.password && load.modifyQuestions == 1) {
        answer = load.password;
      } else {
        load.result.readOnly = true;
      }
    }
  }
  // Outside our lock: setDocumentPassword takes the Solar mutex (the asking thread released it before
  // calling back) and wakes the loading thread.
  kit->pClass->setDocumentPassword(kit, url.c_str(), answer ? answer->c_str() : nullptr);
}

}  // namespace ode
