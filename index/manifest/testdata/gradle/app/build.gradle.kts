plugins { kotlin("jvm") version "1.9.24" }

description = "The shop application"

dependencies {
    implementation(project(":lib:util"))
    implementation("com.squareup.okhttp3:okhttp:4.12.0")
    implementation("com.acme.tools:runtime:1.0") // from the included build
    implementation(platform("org.springframework.boot:spring-boot-dependencies:3.2.5"))
    implementation(kotlin("stdlib"))
    kapt("com.google.dagger:dagger-compiler:2.51")
    testImplementation(libs.junit.jupiter)
    runtimeOnly("org.postgresql:postgresql:42.7.3") {
        because("the production database")
    }
}
