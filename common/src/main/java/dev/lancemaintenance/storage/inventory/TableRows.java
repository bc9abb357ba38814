package dev.lancemaintenance.storage.inventory;

/**
 * Which rows of an S3 Inventory report are live files of one table, and under which
 * table-relative path: the one home of that rule for every report format.
 *
 * <p>A row of another bucket, another prefix (a table whose name starts with this one's), a folder
 * marker, a version that is not the latest, or a delete marker is no file of the table. A row
 * whose versioning fields are empty is left out too: leaving a file out of a listing can never
 * delete it (a file an old version needs then refuses the run), while taking in a dead one could.
 */
final class TableRows {
  private final String bucket;
  private final String tablePrefix;

  /**
   * @param bucket the table's bucket, as the report names it
   * @param tableKey the table's key in the bucket, without slashes at either end ({@code warehouse/t.lance})
   */
  TableRows(String bucket, String tableKey) {
    this.bucket = bucket;
    this.tablePrefix = tableKey.isEmpty() ? "" : tableKey + "/";
  }

  /**
   * The table-relative path of a row's object, or null when the row is no live file of the table.
   *
   * @param isLatest the row's {@code IsLatest}: TRUE in a report without versions, null when empty
   * @param isDeleteMarker the row's {@code IsDeleteMarker}: FALSE in a report without versions, null when empty
   */
  String pathOf(String rowBucket, String key, Boolean isLatest, Boolean isDeleteMarker) {
    if (!bucket.equals(rowBucket) || !Boolean.TRUE.equals(isLatest) || !Boolean.FALSE.equals(isDeleteMarker)) {
      return null;
    }
    if (key == null || !key.startsWith(tablePrefix) || key.endsWith("/")) {
      return null;
    }
    return key.substring(tablePrefix.length());
  }
}
