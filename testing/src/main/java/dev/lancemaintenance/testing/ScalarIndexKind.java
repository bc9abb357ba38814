package dev.lancemaintenance.testing;

import org.lance.index.IndexType;

/** The scalar index kinds a fixture can build; each leaves a different file set under _indices. */
public enum ScalarIndexKind {
  BTREE(IndexType.BTREE, "btree"),
  BITMAP(IndexType.BITMAP, "bitmap");

  private final IndexType sdkType;
  private final String paramsName;

  ScalarIndexKind(IndexType sdkType, String paramsName) {
    this.sdkType = sdkType;
    this.paramsName = paramsName;
  }

  IndexType sdkType() {
    return sdkType;
  }

  String paramsName() {
    return paramsName;
  }
}
