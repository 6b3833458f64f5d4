plugins { `kotlin-dsl` }
