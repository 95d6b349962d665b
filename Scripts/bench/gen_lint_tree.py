#!/usr/bin/env python3
"""Writes a tree of small plists for Scripts/bench/lint: N/2 app folders, each with an
Info.plist and an App.entitlements, XML written by plistlib (fixed seed). About 1 in 20
files is broken (truncated, duplicate key, bad integer) and about 1 in 5 has a lint
finding (version format, empty purpose string, unknown entitlement, capitalised push
environment). Usage: gen_lint_tree.py DIR COUNT"""
import os, plistlib, random, sys

root, count = sys.argv[1], int(sys.argv[2])
rng = random.Random(20261123)
os.makedirs(root, exist_ok=True)

def info(i):
    d = {
        "CFBundleDevelopmentRegion": "en",
        "CFBundleDisplayName": f"App {i}",
        "CFBundleExecutable": f"App{i}",
        "CFBundleIdentifier": f"com.example.app{i}",
        "CFBundleInfoDictionaryVersion": "6.0",
        "CFBundlePackageType": "APPL",
        "CFBundleShortVersionString": f"{rng.randint(1, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}",
        "CFBundleVersion": str(rng.randint(1, 9999)),
        "LSRequiresIPhoneOS": True,
        "NSCameraUsageDescription": "Scans the QR code on your boarding pass.",
        "UILaunchStoryboardName": "LaunchScreen",
        "UIRequiredDeviceCapabilities": ["arm64"],
        "UISupportedInterfaceOrientations": ["UIInterfaceOrientationPortrait", "UIInterfaceOrientationLandscapeLeft"],
        "CFBundleURLTypes": [{"CFBundleURLName": f"com.example.app{i}", "CFBundleURLSchemes": [f"app{i}"]}],
    }
    r = rng.random()
    if r < 0.07: d["CFBundleShortVersionString"] += " beta"
    elif r < 0.14: d["NSCameraUsageDescription"] = ""
    elif r < 0.20: d["UIRequiredDeviceCapabilities"].append("metall")
    return d

def entitlements(i):
    d = {
        "application-identifier": f"ABCDE12345.com.example.app{i}",
        "aps-environment": "production",
        "com.apple.developer.associated-domains": [f"applinks:app{i}.example.com"],
        "com.apple.security.application-groups": [f"group.com.example.app{i}"],
        "keychain-access-groups": [f"ABCDE12345.com.example.app{i}"],
    }
    r = rng.random()
    if r < 0.07: d["aps-environment"] = "Production"
    elif r < 0.14: d["com.apple.developer.associated-domain"] = d.pop("com.apple.developer.associated-domains")
    return d

def breakage(data):
    r = rng.random()
    if r < 0.34: return data[: len(data) // 2]                                   # truncated
    if r < 0.67: return data.replace(b"<key>CFBundleVersion</key>", b"<key>CFBundleExecutable</key>", 1).replace(
        b"<key>aps-environment</key>", b"<key>application-identifier</key>", 1)   # duplicate key
    return data.replace(b"<true/>", b"<true>yes</true>", 1).replace(b"</array>", b"</aray>", 1)

for n in range(count // 2):
    folder = os.path.join(root, f"App{n:05d}")
    os.makedirs(folder, exist_ok=True)
    for name, value in (("Info.plist", info(n)), ("App.entitlements", entitlements(n))):
        data = plistlib.dumps(value, fmt=plistlib.FMT_XML, sort_keys=False)
        if rng.random() < 0.05: data = breakage(data)
        with open(os.path.join(folder, name), "wb") as f: f.write(data)
