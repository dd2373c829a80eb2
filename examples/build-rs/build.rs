//! Generates the Petstore's tools into OUT_DIR/petstore/ from the document
//! (regenerated whenever it changes).

fn main() {
    openapi2mcp_codegen::build::Builder::new("../../specs/petstore.yaml")
        .module_dir("petstore")
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
}
