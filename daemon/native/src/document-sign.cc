// Document signing (LibreOfficeKit 7.4 and 25.2): insertCertificate signs the document with a certificate and
// its private key, addCertificate trusts a CA / intermediate certificate for this process, and
// getSignatureState reports LibreOffice's SignatureState for the loaded document. All synchronous:
// signing a document takes tens of milliseconds. LibreOffice's NSS store must exist (a kit's profile
// has one once NSS has been initialised; see daemon/kit/edit-sign.ts).
#include "args.h"
#include "document.h"

namespace ode {

// insertCertificate(certDer: Buffer, keyDer: Buffer /* PKCS#8 */) -> boolean (true: signed).
Napi::Value Document::InsertCertificate(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  Napi::Buffer<uint8_t> cert = BufferArg(info, 0, "certificate");
  Napi::Buffer<uint8_t> key = BufferArg(info, 1, "privateKey");
  bool ok = d->pClass->insertCertificate(d, cert.Data(), static_cast<int>(cert.Length()), key.Data(),
                                         static_cast<int>(key.Length()));
  return Napi::Boolean::New(info.Env(), ok);
}

// addCertificate(certDer: Buffer) -> boolean (true: added to the NSS store as trusted).
Napi::Value Document::AddCertificate(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  Napi::Buffer<uint8_t> cert = BufferArg(info, 0, "certificate");
  bool ok = d->pClass->addCertificate(d, cert.Data(), static_cast<int>(cert.Length()));
  return Napi::Boolean::New(info.Env(), ok);
}

// getSignatureState() -> number (SignatureState: 0 none, 1 ok, 2 broken, 3 invalid, 4 not validated,
// 5 partial ok, 6 not validated + partial ok ...).
Napi::Value Document::GetSignatureState(const Napi::CallbackInfo& info) {
  LibreOfficeKitDocument* d = Live(info.Env());
  return Napi::Number::New(info.Env(), d->pClass->getSignatureState(d));
}

}  // namespace ode
