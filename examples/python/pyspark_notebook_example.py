"""Cleanup of a Lance table from a PySpark notebook (Databricks, EMR, Jupyter).

Needs the Spark connector's bundle jar on the session (no catalog or SQL extension) and
``connector-spark/python/lance_maintenance.py`` importable, e.g.::

    spark-submit \\
      --jars connector-spark/target/lance-maintenance-spark-4.1_2.13-0.1.0-SNAPSHOT.jar \\
      --py-files connector-spark/python/lance_maintenance.py \\
      examples/python/pyspark_notebook_example.py /path/to/table.lance

In a notebook, ``spark`` already exists: the body of ``clean_up`` is the whole example.
"""

import sys

from pyspark.sql import SparkSession

from lance_maintenance import LanceMaintenance


def clean_up(spark, table, older_than="7d"):
    """Shows what a cleanup would remove (nothing is deleted), then runs it and returns its counters."""
    maintenance = LanceMaintenance(spark)

    would_go = maintenance.cleanup_dry_run(table, older_than=older_than)
    # One row per file (path, kind, bytes, reason), computed on the executors as it is read.
    would_go.groupBy("kind").sum("bytes").show(truncate=False)

    counters = maintenance.cleanup(table, older_than=older_than)
    print("removed %(old_versions)d versions, %(bytes_removed)d bytes" % counters)
    return counters


def main(argv):
    if len(argv) != 2:
        print("usage: pyspark_notebook_example.py <table-uri>", file=sys.stderr)
        return 2
    spark = SparkSession.builder.appName("lance-maintenance PySpark example").getOrCreate()
    try:
        counters = clean_up(spark, argv[1], older_than="0s")
        return 0 if counters["failed_deletes"] == 0 else 1
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
