/// Apple's lists for privacy manifests (`PrivacyInfo.xcprivacy`) and required-reason APIs:
/// the one place devkit keeps them. The privacy-manifest rules and the bundle check
/// (`BundleChecks`) read these lists and nothing else; `PrivacyCatalogTests` checks that every
/// code here is accepted where it belongs and refused elsewhere.
///
/// Each list names the page it comes from and when it was read. The pages could not be
/// fetched where this file was written (no network): the lists were written from what was
/// known of each page and cross-checked against independent copies of the same lists in
/// public repositories, on the date given. When Apple changes a page, update the list and
/// its date here.
public enum PrivacyCatalog {
    /// Where a list comes from.
    public struct Source: Sendable {
        public let url: String
        /// When the list was last compared with the page, and how.
        public let read: String
    }

    /// One category of required-reason API (`NSPrivacyAccessedAPIType`): its approved reason
    /// codes and the symbols a Mach-O imports when it uses an API of the category.
    public struct APICategory: Sendable {
        /// `NSPrivacyAccessedAPICategory…`.
        public let name: String
        /// Approved `NSPrivacyAccessedAPITypeReasons` values.
        public let reasons: [String]
        /// Symbols as the Mach-O symbol table spells them (leading underscore; Objective-C
        /// classes as `_OBJC_CLASS_$_Name`). Apple lists APIs, not symbols: each entry says
        /// which listed API it stands for.
        public let symbols: [(symbol: String, api: String)]
    }

    static let asKnown = "2026-11-23, as known (the page was not reachable; compared with independent copies of the list)"

    // MARK: Manifest keys

    public static let manifestSource = Source(url: "https://developer.apple.com/documentation/bundleresources/privacy-manifest-files", read: asKnown)
    /// The keys of a privacy manifest's root dictionary.
    public static let manifestKeys = ["NSPrivacyTracking", "NSPrivacyTrackingDomains", "NSPrivacyCollectedDataTypes", "NSPrivacyAccessedAPITypes"]
    /// The keys of each `NSPrivacyCollectedDataTypes` entry; all four are required.
    public static let collectedDataTypeKeys = ["NSPrivacyCollectedDataType", "NSPrivacyCollectedDataTypeLinked",
                                               "NSPrivacyCollectedDataTypeTracking", "NSPrivacyCollectedDataTypePurposes"]
    /// The keys of each `NSPrivacyAccessedAPITypes` entry; both are required.
    public static let accessedAPITypeKeys = ["NSPrivacyAccessedAPIType", "NSPrivacyAccessedAPITypeReasons"]

    // MARK: Collected data

    public static let dataUseSource = Source(url: "https://developer.apple.com/documentation/bundleresources/describing-data-use-in-privacy-manifests", read: asKnown)
    /// `NSPrivacyCollectedDataType` values, grouped as the page groups them.
    public static let dataTypes = [
        // Contact info
        "NSPrivacyCollectedDataTypeName", "NSPrivacyCollectedDataTypeEmailAddress", "NSPrivacyCollectedDataTypePhoneNumber",
        "NSPrivacyCollectedDataTypePhysicalAddress", "NSPrivacyCollectedDataTypeOtherUserContactInfo",
        // Health and fitness
        "NSPrivacyCollectedDataTypeHealth", "NSPrivacyCollectedDataTypeFitness",
        // Financial info
        "NSPrivacyCollectedDataTypePaymentInfo", "NSPrivacyCollectedDataTypeCreditInfo", "NSPrivacyCollectedDataTypeOtherFinancialInfo",
        // Location
        "NSPrivacyCollectedDataTypePreciseLocation", "NSPrivacyCollectedDataTypeCoarseLocation",
        // Sensitive info, contacts
        "NSPrivacyCollectedDataTypeSensitiveInfo", "NSPrivacyCollectedDataTypeContacts",
        // User content (Apple spells "PhotosorVideos" with a lowercase "or")
        "NSPrivacyCollectedDataTypeEmailsOrTextMessages", "NSPrivacyCollectedDataTypePhotosorVideos", "NSPrivacyCollectedDataTypeAudioData",
        "NSPrivacyCollectedDataTypeGameplayContent", "NSPrivacyCollectedDataTypeCustomerSupport", "NSPrivacyCollectedDataTypeOtherUserContent",
        // Browsing and search history
        "NSPrivacyCollectedDataTypeBrowsingHistory", "NSPrivacyCollectedDataTypeSearchHistory",
        // Identifiers, purchases
        "NSPrivacyCollectedDataTypeUserID", "NSPrivacyCollectedDataTypeDeviceID", "NSPrivacyCollectedDataTypePurchaseHistory",
        // Usage data
        "NSPrivacyCollectedDataTypeProductInteraction", "NSPrivacyCollectedDataTypeAdvertisingData", "NSPrivacyCollectedDataTypeOtherUsageData",
        // Diagnostics
        "NSPrivacyCollectedDataTypeCrashData", "NSPrivacyCollectedDataTypePerformanceData", "NSPrivacyCollectedDataTypeOtherDiagnosticData",
        // Surroundings, body
        "NSPrivacyCollectedDataTypeEnvironmentScanning", "NSPrivacyCollectedDataTypeHands", "NSPrivacyCollectedDataTypeHead",
        // Other data
        "NSPrivacyCollectedDataTypeOtherDataTypes",
    ]
    /// `NSPrivacyCollectedDataTypePurposes` values.
    public static let purposes = [
        "NSPrivacyCollectedDataTypePurposeThirdPartyAdvertising", "NSPrivacyCollectedDataTypePurposeDeveloperAdvertising",
        "NSPrivacyCollectedDataTypePurposeAnalytics", "NSPrivacyCollectedDataTypePurposeProductPersonalization",
        "NSPrivacyCollectedDataTypePurposeAppFunctionality", "NSPrivacyCollectedDataTypePurposeOther",
    ]

    // MARK: Required-reason APIs

    public static let requiredReasonSource = Source(url: "https://developer.apple.com/documentation/bundleresources/describing-use-of-required-reason-api", read: asKnown)
    /// The five categories, their reason codes and the symbols that reveal their APIs. APIs
    /// that are Objective-C methods or properties (`systemUptime`, `activeInputModes`,
    /// `fileModificationDate`) are selectors, not imports, and have no symbol here; see
    /// Docs/lint.md, "What a symbol scan can see".
    public static let apiCategories = [
        APICategory(
            name: "NSPrivacyAccessedAPICategoryFileTimestamp", reasons: ["DDA9.1", "C617.1", "3B52.1", "0A2A.1"],
            symbols: [
                ("_NSFileCreationDate", "creationDate"), ("_NSFileModificationDate", "modificationDate"),
                ("_NSURLContentModificationDateKey", "contentModificationDateKey"), ("_NSURLCreationDateKey", "creationDateKey"),
                ("_getattrlist", "getattrlist"), ("_getattrlistbulk", "getattrlistbulk"), ("_fgetattrlist", "fgetattrlist"),
                ("_getattrlistat", "getattrlistat"), ("_stat", "stat"), ("_fstat", "fstat"), ("_fstatat", "fstatat"), ("_lstat", "lstat"),
            ]),
        APICategory(
            name: "NSPrivacyAccessedAPICategorySystemBootTime", reasons: ["35F9.1", "8FFB.1", "3D61.1"],
            symbols: [("_mach_absolute_time", "mach_absolute_time")]),
        APICategory(
            name: "NSPrivacyAccessedAPICategoryDiskSpace", reasons: ["85F4.1", "E174.1", "7D9E.1", "B728.1"],
            symbols: [
                ("_NSURLVolumeAvailableCapacityKey", "volumeAvailableCapacityKey"),
                ("_NSURLVolumeAvailableCapacityForImportantUsageKey", "volumeAvailableCapacityForImportantUsageKey"),
                ("_NSURLVolumeAvailableCapacityForOpportunisticUsageKey", "volumeAvailableCapacityForOpportunisticUsageKey"),
                ("_NSURLVolumeTotalCapacityKey", "volumeTotalCapacityKey"), ("_NSFileSystemFreeSize", "systemFreeSize"),
                ("_NSFileSystemSize", "systemSize"), ("_statfs", "statfs"), ("_statvfs", "statvfs"), ("_fstatfs", "fstatfs"),
                ("_fstatvfs", "fstatvfs"), ("_getattrlist", "getattrlist"), ("_fgetattrlist", "fgetattrlist"), ("_getattrlistat", "getattrlistat"),
            ]),
        APICategory(
            name: "NSPrivacyAccessedAPICategoryActiveKeyboards", reasons: ["3EC4.1", "54BD.1"],
            // activeInputModes is a class property: referencing the class is what a binary
            // that reads it must import (the class's other class method, currentInputMode,
            // is long deprecated).
            symbols: [("_OBJC_CLASS_$_UITextInputMode", "activeInputModes")]),
        APICategory(
            name: "NSPrivacyAccessedAPICategoryUserDefaults", reasons: ["CA92.1", "1C8F.1", "C56D.1", "AC6B.1"],
            symbols: [("_OBJC_CLASS_$_NSUserDefaults", "UserDefaults")]),
    ]

    /// The category named `name`, if it is one of the five.
    public static func category(named name: String) -> APICategory? { apiCategories.first { $0.name == name } }

    /// The category whose approved reasons include `code`.
    public static func category(ofReason code: String) -> APICategory? { apiCategories.first { $0.reasons.contains(code) } }

    // MARK: Commonly used third-party SDKs

    public static let sdkSource = Source(url: "https://developer.apple.com/support/third-party-SDK-requirements/", read: asKnown)
    /// SDKs that must ship their own privacy manifest (and signature) in apps submitted since
    /// May 2024 (ITMS-91061), as their framework or module names appear in a bundle.
    public static let commonlyUsedSDKs = [
        "Abseil", "AFNetworking", "Alamofire", "AppAuth", "BoringSSL", "openssl_grpc", "Capacitor", "Charts", "connectivity_plus",
        "Cordova", "device_info_plus", "DKImagePickerController", "DKPhotoGallery", "FBAEMKit", "FBLPromises", "FBSDKCoreKit",
        "FBSDKCoreKit_Basics", "FBSDKLoginKit", "FBSDKShareKit", "file_picker", "FirebaseABTesting", "FirebaseAuth", "FirebaseCore",
        "FirebaseCoreDiagnostics", "FirebaseCoreExtension", "FirebaseCoreInternal", "FirebaseCrashlytics", "FirebaseDynamicLinks",
        "FirebaseFirestore", "FirebaseInstallations", "FirebaseMessaging", "FirebaseRemoteConfig", "Flutter", "flutter_inappwebview",
        "flutter_local_notifications", "fluttertoast", "FMDB", "geolocator_apple", "GoogleDataTransport", "GoogleSignIn",
        "GoogleToolboxForMac", "GoogleUtilities", "grpcpp", "GTMAppAuth", "GTMSessionFetcher", "hermes", "image_picker_ios",
        "IQKeyboardManager", "IQKeyboardManagerSwift", "Kingfisher", "leveldb", "Lottie", "MBProgressHUD", "nanopb", "OneSignal",
        "OneSignalCore", "OneSignalExtension", "OneSignalOutcomes", "OpenSSL", "OrderedSet", "package_info", "package_info_plus",
        "path_provider", "path_provider_ios", "Promises", "Protobuf", "Reachability", "RealmSwift", "RxCocoa", "RxRelay", "RxSwift",
        "SDWebImage", "share_plus", "shared_preferences_ios", "SnapKit", "sqflite", "Starscream", "SVProgressHUD", "SwiftyGif",
        "SwiftyJSON", "Toast", "UnityFramework", "url_launcher", "url_launcher_ios", "video_player_avfoundation", "wakelock",
        "webview_flutter_wkwebview",
    ]
}
