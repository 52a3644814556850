// The web app's files, embedded in every binary that links this module (`sgserver`), by their path under
// clients/web. SwiftPM names an embedded file by its base name alone, so base names are unique across folders;
// `WebAppTests` checks that every file here is listed, and in Package.swift.
public enum WebAppFiles {
    public static let all: [String: [UInt8]] = [
        "index.html": PackageResources.index_html,
        "sw.js": PackageResources.sw_js,
        "manifest.webmanifest": PackageResources.manifest_webmanifest,
        "css/app.css": PackageResources.app_css,
        "icons/icon.svg": PackageResources.icon_svg,
        "js/main.js": PackageResources.main_js,
    ]
}
