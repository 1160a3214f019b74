// Per-environment state of the addon (Node-API instance data: one slot per addon and environment).
#pragma once

#include <napi.h>

namespace ode {

struct AddonData {
  Napi::FunctionReference errorClass;    // the facade's LokError: new (message, code)
  Napi::FunctionReference documentClass; // native Document constructor, used by the load worker
};

// Returns this environment's data, creating it on first use (Node deletes it at environment teardown).
inline AddonData* GetAddonData(Napi::Env env) {
  AddonData* data = env.GetInstanceData<AddonData>();
  if (!data) {
    data = new AddonData();
    env.SetInstanceData<AddonData>(data);
  }
  return data;
}

}  // namespace ode
