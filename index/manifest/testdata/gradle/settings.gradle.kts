pluginManagement {
    includeBuild("build-logic") // brings plugins, not libraries
}

rootProject.name = "shop"

include(":app", ":lib:util")
include("docs") // a project without a build script

includeBuild("tools/codegen")
