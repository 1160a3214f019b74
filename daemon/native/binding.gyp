# Build description of the LibreOfficeKit addon (ode_lok.node). Run through build.mjs, which calls
# node-gyp only when a source is newer than the built file. LibreOfficeKit is not linked: lok_init_2
# dlopen()s libsofficeapp.so / libmergedlo.so from the program directory at run time, so only the
# headers (package libreofficekit-dev) are needed to build.
{
  "targets": [
    {
      "target_name": "ode_lok",
      "sources": [
        "src/addon.cc",
        "src/errors.cc",
        "src/callback-queue.cc",
        "src/password-broker.cc",
        "src/office.cc",
        "src/office-load.cc",
        "src/office-extract.cc",
        "src/document.cc",
        "src/document-render.cc",
        "src/document-save.cc",
        "src/document-input.cc",
        "src/input-fence.cc",
        "src/document-views.cc",
        "src/document-clipboard.cc",
        "src/document-sign.cc",
        "src/document-slideshow.cc"
      ],
      "include_dirs": ["/usr/include/LibreOfficeKit"],
      "dependencies": ["<!(node -p \"require('node-addon-api').targets\"):node_addon_api_except"],
      "defines": ["LOK_USE_UNSTABLE_API", "NAPI_VERSION=8", "NODE_ADDON_API_DISABLE_DEPRECATED"],
      "cflags_cc": ["-std=c++17", "-Wall", "-Wextra", "-Wno-unused-parameter"],
      "libraries": ["-ldl"]
    }
  ]
}
