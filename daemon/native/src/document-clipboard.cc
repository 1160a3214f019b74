// The current view's clipboard (getClipboard / setClipboard) and paste. Data crosses as Buffers:
// clipboard flavours may be binary (images) and are not NUL-terminated.
#include <cstdlib>
#include <vector>

#include "args.h"
#include "document.h"

namespace ode {

// getClipboard(mimeTypes?: string[]) -> Array<{ mimeType, data: Buffer }>. Without mimeTypes,
// LibreOffice returns every flavour it offers.
Napi::Value Document::GetClipboard(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LibreOfficeKitDocument* d = Live(env);
  std::vector<std::string> wanted;
  bool all = info.Length() < 1 || info[0].IsUndefined() || info[0].IsNull();
  if (!all) {
    if (!info[0].IsArray()) ThrowError(env, code::kInvalidArgument, "mimeTypes must be an array");
    Napi::Array arr = info[0].As<Napi::Array>();
    for (uint32_t i = 0; i < arr.Length(); ++i) {
      Napi::Value v = arr.Get(i);
      if (!v.IsString()) ThrowError(env, code::kInvalidArgument, "mimeTypes must be strings");
      wanted.push_back(v.As<Napi::String>().Utf8Value());
    }
  }
  std::vector<const char*> wantedPtrs;
  for (const std::string& s : wanted) wantedPtrs.push_back(s.c_str());
  wantedPtrs.push_back(nullptr);

  size_t count = 0;
  char** mimeTypes = nullptr;
  size_t* sizes = nullptr;
  char** streams = nullptr;
  int ok = d->pClass->getClipboard(d, all ? nullptr : wantedPtrs.data(), &count, &mimeTypes, &sizes,
                                   &streams);
  Napi::Array out = Napi::Array::New(env);
  for (size_t i = 0; ok && i < count; ++i) {
    Napi::Object item = Napi::Object::New(env);
    item.Set("mimeType", Napi::String::New(env, mimeTypes[i] ? mimeTypes[i] : ""));
    item.Set("data", Napi::Buffer<char>::Copy(env, streams[i] ? streams[i] : "",
                                              streams[i] ? sizes[i] : 0));
    out.Set(static_cast<uint32_t>(i), item);
  }
  for (size_t i = 0; i < count; ++i) {
    if (mimeTypes) std::free(mimeTypes[i]);
    if (streams) std::free(streams[i]);
  }
  std::free(mimeTypes);
  std::free(sizes);
  std::free(streams);
  if (!ok) ThrowError(env, code::kCallFailed, "getClipboard failed");
  return out;
}

// setClipboard(items: Array<{ mimeType: string, data: Buffer }>)
Napi::Value Document::SetClipboard(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LibreOfficeKitDocument* d = Live(env);
  if (info.Length() < 1 || !info[0].IsArray()) {
    ThrowError(env, code::kInvalidArgument, "items must be an array");
  }
  Napi::Array arr = info[0].As<Napi::Array>();
  std::vector<std::string> mimeTypes;
  std::vector<std::string> datas;
  for (uint32_t i = 0; i < arr.Length(); ++i) {
    Napi::Value v = arr.Get(i);
    if (!v.IsObject()) ThrowError(env, code::kInvalidArgument, "items must be objects");
    Napi::Object item = v.As<Napi::Object>();
    Napi::Value mime = item.Get("mimeType");
    Napi::Value data = item.Get("data");
    if (!mime.IsString() || !data.IsBuffer()) {
      ThrowError(env, code::kInvalidArgument, "each item needs mimeType: string and data: Buffer");
    }
    Napi::Buffer<char> buf = data.As<Napi::Buffer<char>>();
    mimeTypes.push_back(mime.As<Napi::String>().Utf8Value());
    datas.emplace_back(buf.Data(), buf.Length());
  }
  std::vector<const char*> mimePtrs, dataPtrs;
  std::vector<size_t> sizes;
  for (size_t i = 0; i < mimeTypes.size(); ++i) {
    mimePtrs.push_back(mimeTypes[i].c_str());
    dataPtrs.push_back(datas[i].data());
    sizes.push_back(datas[i].size());
  }
  int ok = d->pClass->setClipboard(d, mimeTypes.size(), mimePtrs.data(), sizes.data(),
                                   dataPtrs.data());
  if (!ok) ThrowError(env, code::kCallFailed, "setClipboard failed");
  return env.Undefined();
}

// paste(mimeType, data: Buffer) -> boolean (false: LibreOffice could not paste that flavour).
Napi::Value Document::Paste(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  std::string mimeType = StringArg(info, 0, "mimeType");
  Napi::Buffer<uint8_t> data = BufferArg(info, 1, "data");
  bool ok = d->pClass->paste(d, mimeType.c_str(), reinterpret_cast<const char*>(data.Data()),
                             data.Length());
  return Napi::Boolean::New(info.Env(), ok);
}

}  // namespace ode
