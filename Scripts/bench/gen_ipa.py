#!/usr/bin/env python3
"""A large .ipa for Scripts/bench/lint: an iOS app with 20 frameworks and 5 extensions whose
Mach-O binaries come from Scripts/fixtures/make-privacy-app (real ones, linked by ld64.lld),
every bundle with its Info.plist and privacy manifest, padded with incompressible resources
(stored, as asset catalogs and media are) to about SIZE_MB.

    gen_ipa.py TEMPLATES OUT.ipa [SIZE_MB]
    gen_ipa.py --signed OUT.ipa [SIZE_MB]

TEMPLATES is make-privacy-app's output directory (Good.app and Bad.app are used).
--signed builds the same app on disk with binaries linked by make-privacy-app's build (with
LC_CODE_SIGNATURE room) and signs every bundle as Scripts/fixtures/make-signed-app does
(CodeDirectories SHA-1 and SHA-256, CodeResources over every file, openssl CMS signer, a
profile in the app and in each extension), inside out, then zips it: the seal check's input.
"""
import importlib.machinery, importlib.util, os, plistlib, random, shutil, sys, tempfile, zipfile

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")

def load(name):
    loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"), os.path.join(FIXTURES, name))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module

def signed(out, size):
    privacy, sign = load("make-privacy-app"), load("make-signed-app")
    rng = random.Random(20261125)
    with tempfile.TemporaryDirectory() as work:
        privacy.write_stubs(work)
        binaries = {}
        for name, symbols, dylib in [("Big", ["_stat", "_OBJC_CLASS_$_NSUserDefaults"], False),
                                     ("Kit", ["_mach_absolute_time"], True),
                                     ("Extension", ["_OBJC_CLASS_$_NSUserDefaults"], False)]:
            path = os.path.join(work, name)
            privacy.build(work, path, symbols, dylib=dylib, install_name=f"@rpath/{name}.framework/{name}", signable=True)
            binaries[name] = open(path, "rb").read()
        _, developer, _ = sign.certificates(work)
        root_ca = os.path.join(work, "certs", "root.key"), os.path.join(work, "certs", "root.pem")
        app = os.path.join(work, "Payload", "Big.app")
        app_id = "com.example.big"
        ents = {"application-identifier": f"{sign.TEAM}.{app_id}", "get-task-allow": False}
        nested = {}
        def bundle(path, name, package, bundle_id, binary, manifest, entitlements, **extra):
            os.makedirs(path, exist_ok=True)
            info = sign.info(os.path.join(path, "Info.plist"), name, package, bundle_id, **extra)
            open(os.path.join(path, name), "wb").write(binaries[binary])
            privacy.manifest(os.path.join(path, "PrivacyInfo.xcprivacy"), manifest)
            if entitlements is not None:
                sign.profile(os.path.join(path, "embedded.mobileprovision"), root_ca, bundle_id,
                             {k: v for k, v in entitlements.items() if k != "application-identifier"}, [developer[2]])
            return info
        for i in range(20):
            name = f"Kit{i:02d}"
            path = os.path.join(app, "Frameworks", name + ".framework")
            info = bundle(path, name, "FMWK", f"org.example.{name.lower()}", "Kit", [("SystemBootTime", ["35F9.1"])], None)
            resources = sign.code_resources(path, name, {})
            cd = sign.sign_binary(os.path.join(path, name), f"org.example.{name.lower()}", info, resources, None,
                                  developer, [sign.CS_HASHTYPE_SHA256], main=False)
            nested[f"Frameworks/{name}.framework"] = sign.cdhash(cd)
        for i in range(5):
            name = f"Extension{i}"
            bundle_id = f"{app_id}.{name.lower()}"
            path = os.path.join(app, "PlugIns", name + ".appex")
            ext_ents = {"application-identifier": f"{sign.TEAM}.{bundle_id}", "get-task-allow": False}
            info = bundle(path, name, "XPC!", bundle_id, "Extension", [("UserDefaults", ["1C8F.1"])], ext_ents,
                          NSExtension={"NSExtensionPointIdentifier": "com.apple.widgetkit-extension"})
            resources = sign.code_resources(path, name, {})
            cd = sign.sign_binary(os.path.join(path, name), bundle_id, info, resources, ext_ents,
                                  developer, [sign.CS_HASHTYPE_SHA256], main=True)
            nested[f"PlugIns/{name}.appex"] = sign.cdhash(cd)
        info = bundle(app, "Big", "APPL", app_id, "Big", [("FileTimestamp", ["C617.1"]), ("UserDefaults", ["CA92.1"])], ents)
        os.makedirs(os.path.join(app, "Assets"))
        for i in range(max(0, size // 2)):
            open(os.path.join(app, "Assets", f"blob{i:03d}.bin"), "wb").write(rng.randbytes(2 << 20))
        resources = sign.code_resources(app, "Big", nested)
        sign.sign_binary(os.path.join(app, "Big"), app_id, info, resources, ents, developer,
                         [sign.CS_HASHTYPE_SHA1, sign.CS_HASHTYPE_SHA256], main=True)
        tmp = out + ".tmp"
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
            for directory, _, names in os.walk(app):
                for n in sorted(names):
                    full = os.path.join(directory, n)
                    # Resources stored, as asset catalogs and media are; the rest deflated.
                    kind = zipfile.ZIP_STORED if n.endswith(".bin") else zipfile.ZIP_DEFLATED
                    z.write(full, os.path.relpath(full, work), compress_type=kind)
        os.replace(tmp, out)

def info(bundle_id, name, package, **extra):
    value = {"CFBundleIdentifier": bundle_id, "CFBundleExecutable": name, "CFBundleName": name,
             "CFBundlePackageType": package, "CFBundleShortVersionString": "3.2", "CFBundleVersion": "320",
             "MinimumOSVersion": "16.0"}
    value.update(extra)
    return plistlib.dumps(value)

def main():
    templates, out = sys.argv[1], sys.argv[2]
    size = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    if templates == "--signed":
        return signed(out, size)
    app_binary = open(os.path.join(templates, "Good.app", "Good"), "rb").read()
    manifest = open(os.path.join(templates, "Good.app", "PrivacyInfo.xcprivacy"), "rb").read()
    dylib = open(os.path.join(templates, "Good.app", "Frameworks", "Alamofire.framework", "Alamofire"), "rb").read()
    dylib_manifest = open(os.path.join(templates, "Good.app", "Frameworks", "Alamofire.framework", "PrivacyInfo.xcprivacy"), "rb").read()
    widget = open(os.path.join(templates, "Bad.app", "PlugIns", "Widget.appex", "Widget"), "rb").read()
    widget_manifest = open(os.path.join(templates, "Bad.app", "PlugIns", "Widget.appex", "PrivacyInfo.xcprivacy"), "rb").read()
    rng = random.Random(20261125)
    root = "Payload/Big.app/"
    tmp = out + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(root + "Info.plist", info("com.example.big", "Big", "APPL"))
        z.writestr(root + "Big", app_binary)
        z.writestr(root + "PrivacyInfo.xcprivacy", manifest)
        for i in range(20):
            name = f"Kit{i:02d}"
            base = f"{root}Frameworks/{name}.framework/"
            z.writestr(base + "Info.plist", info(f"org.example.{name.lower()}", name, "FMWK"))
            z.writestr(base + name, dylib)
            z.writestr(base + "PrivacyInfo.xcprivacy", dylib_manifest)
        for i in range(5):
            name = f"Extension{i}"
            base = f"{root}PlugIns/{name}.appex/"
            z.writestr(base + "Info.plist", info(f"com.example.big.{name.lower()}", name, "XPC!",
                                                 NSExtension={"NSExtensionPointIdentifier": "com.apple.widgetkit-extension"}))
            z.writestr(base + name, widget)
            z.writestr(base + "PrivacyInfo.xcprivacy", widget_manifest)
        # Incompressible resources, 2 MiB each, stored.
        for i in range(max(0, size // 2)):
            z.writestr(zipfile.ZipInfo(f"{root}Assets/blob{i:03d}.bin"), rng.randbytes(2 << 20), zipfile.ZIP_STORED)
    os.replace(tmp, out)

if __name__ == "__main__":
    main()
