rootProject.name = "shop"

include(":app", ":lib:util")
include("docs") // a project without a build script
