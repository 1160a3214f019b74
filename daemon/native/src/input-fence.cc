// postInputFence: a real "posted input processed" signal (issues 16 and 17). LibreOfficeKit posts key, mouse and
// (25.2) text input and, outside unipoll mode, UNO commands to LibreOffice's main loop as VCL user events
// (Application::PostUserEvent, sfx2 lokhelper.cxx postEventAsync; SfxDispatcher's asynchronous Execute), which the
// main loop runs first-in first-out. A fence is one more user event posted behind them: when LibreOffice's main
// thread runs it, every event posted before it has been dispatched. Input handlers may post follow-up events
// of their own (Writer's Backspace and Delete go through SfxViewShell::ExecKey_Impl's posted accelerator), so the
// fence re-posts itself `hops` times before it reports, putting it behind what the input posted meanwhile.
// LibreOfficeKit has no call for this: Application::PostUserEvent is found by its mangled name (FindVclSymbol).
#include "args.h"
#include "document.h"
#include "errors.h"

namespace ode {
namespace {

constexpr const char* kPostUserEvent = "_ZN11Application13PostUserEventERK4LinkIPvvES1_b";

// tools/link.hxx Link<void*, void>: the stub and its instance; builds with DBG_UTIL add a file name, a line and a
// target name, which are filled too so the layout fits either build (a release build reads the first two).
struct LinkAbi {
  void (*function)(void* instance, void* data);
  void* instance;
  const char* file;
  int line;
  const char* target;
};

// ImplSVEvent* Application::PostUserEvent(const Link<void*, void>&, void* pCaller, bool bReferenceLink).
using PostUserEventFn = void* (*)(const LinkAbi& link, void* caller, bool referenceLink);

struct Fence {
  PostUserEventFn post;
  Napi::ThreadSafeFunction done;  // the JS callback, called once with no arguments
  int hopsLeft;
};

bool Post(Fence* fence);

// Runs on LibreOffice's main thread, inside its user-event dispatch (Solar mutex held).
void FenceStub(void* instance, void*) {
  auto* fence = static_cast<Fence*>(instance);
  if (fence->hopsLeft > 0) {
    --fence->hopsLeft;
    if (Post(fence)) return;
  }
  fence->done.NonBlockingCall();  // napi_closing while the process exits: nothing left to tell
  fence->done.Release();
  delete fence;
}

bool Post(Fence* fence) {
  static const char kName[] = "ode-input-fence";
  LinkAbi link{&FenceStub, fence, kName, 0, kName};
  return fence->post(link, nullptr, false) != nullptr;
}

}  // namespace

// postInputFence(done: () => void, hops: number) -> boolean. Posts a fence behind the input posted so far (see
// above); `done` is called on the JS thread once LibreOffice's main loop reached it. False (and `done` never
// called) when this LibreOffice has no Application::PostUserEvent or refused the event: the caller falls back.
Napi::Value Document::PostInputFence(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Live(env);
  Napi::Function done = FunctionArg(info, 0, "done");
  int hops = IntArg(info, 1, "hops");
  if (hops < 0 || hops > 16) ThrowError(env, code::kInvalidArgument, "hops must be 0..16");
  static auto post = reinterpret_cast<PostUserEventFn>(FindVclSymbol(core_->kit, kPostUserEvent));
  if (!post) return Napi::Boolean::New(env, false);
  auto* fence = new Fence{post, Napi::ThreadSafeFunction::New(env, done, "ode-input-fence", 0, 1), hops};
  fence->done.Unref(env);  // a fence LibreOffice never runs (it is shutting down) does not keep the kit alive
  if (!Post(fence)) {
    fence->done.Release();
    delete fence;
    return Napi::Boolean::New(env, false);
  }
  return Napi::Boolean::New(env, true);
}

}  // namespace ode
