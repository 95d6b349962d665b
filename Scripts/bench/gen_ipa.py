#!/usr/bin/env python3
"""A large .ipa for Scripts/bench/lint: an iOS app with 20 frameworks and 5 extensions whose
Mach-O binaries come from Scripts/fixtures/make-privacy-app (real ones, linked by ld64.lld),
every bundle with its Info.plist and privacy manifest, padded with incompressible resources
(stored, as asset catalogs and media are) to about SIZE_MB.

    gen_ipa.py TEMPLATES OUT.ipa [SIZE_MB]

TEMPLATES is make-privacy-app's output directory (Good.app and Bad.app are used).
"""
import os, plistlib, random, shutil, sys, zipfile

def info(bundle_id, name, package, **extra):
    value = {"CFBundleIdentifier": bundle_id, "CFBundleExecutable": name, "CFBundleName": name,
             "CFBundlePackageType": package, "CFBundleShortVersionString": "3.2", "CFBundleVersion": "320",
             "MinimumOSVersion": "16.0"}
    value.update(extra)
    return plistlib.dumps(value)

def main():
    templates, out = sys.argv[1], sys.argv[2]
    size = int(sys.argv[3]) if len(sys.argv) > 3 else 200
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
