"""Lance table maintenance from PySpark, through the JVM gateway.

Needs the connector's bundle jar on the driver and executors, e.g.
``spark-submit --jars lance-maintenance-spark-<line>_<scala>-<version>.jar`` or a cluster library; no SQL
extension or catalog configuration is needed::

    from lance_maintenance import LanceMaintenance

    lm = LanceMaintenance(spark)
    result = lm.cleanup("s3a://bucket/events.lance", older_than="7d")           # dict of counters
    files = lm.cleanup_dry_run("s3a://bucket/events.lance", older_than="7d")    # DataFrame, one row per file
    fleet = lm.cleanup_all("s3a://bucket/warehouse/", older_than="7d", dry_run=True)  # DataFrame, one row per table

``older_than`` takes what ``CALL lance.cleanup`` takes: a duration ('7d', '36h', 'PT2H') or an ISO
instant ('2026-01-31T00:00:00Z'). The dry run's DataFrame (path, kind, bytes, reason) is computed on
the executors as it is read, so it can be written out or filtered without collecting it.
"""

from pyspark.sql import DataFrame, SparkSession

__all__ = ["LanceMaintenance"]


class LanceMaintenance:
    """Wraps ``dev.lancemaintenance.spark.LanceMaintenance`` of the session's JVM."""

    def __init__(self, spark: SparkSession):
        self._spark = spark
        jvm = spark.sparkContext._jvm
        self._jvm = jvm
        self._entry = jvm.dev.lancemaintenance.spark.LanceMaintenance.of(spark._jsparkSession)

    def _action(self, table, older_than, before_version, delete_unverified,
                error_if_tagged_old_versions, options, allow_short_retention):
        # A None for an argument that decides what is deleted is an error, never the default.
        for name, value in (("delete_unverified", delete_unverified),
                            ("error_if_tagged_old_versions", error_if_tagged_old_versions),
                            ("allow_short_retention", allow_short_retention)):
            if not isinstance(value, bool):
                raise ValueError(f"{name} takes True or False, not {value!r}")
        options_map = self._jvm.java.util.HashMap()
        for key, value in (options or {}).items():
            options_map.put(key, value)
        action = self._entry.cleanup(table, options_map)
        if older_than is not None:
            now = self._jvm.java.time.Instant.now()
            action.beforeTimestamp(
                self._jvm.dev.lancemaintenance.cleanup.OlderThan.beforeTimestamp(older_than, now))
        if before_version is not None:
            action.beforeVersion(int(before_version))
        action.deleteUnverified(bool(delete_unverified))
        action.errorIfTaggedOldVersions(bool(error_if_tagged_old_versions))
        # delete_unverified races concurrent writers: a window under the retention guard (1 day)
        # is refused unless this says nothing writes to the table.
        action.allowShortRetention(bool(allow_short_retention))
        return action

    def cleanup(self, table, older_than=None, before_version=None, delete_unverified=False,
                error_if_tagged_old_versions=True, options=None, allow_short_retention=False):
        """Runs the cleanup and returns its counters as a dict (the columns of CALL lance.cleanup)."""
        action = self._action(table, older_than, before_version, delete_unverified,
                              error_if_tagged_old_versions, options, allow_short_retention)
        counters = action.execute().namedCounters()
        return {key: int(value) for key, value in counters.items()}

    def cleanup_dry_run(self, table, older_than=None, before_version=None, delete_unverified=False,
                        error_if_tagged_old_versions=True, options=None,
                        allow_short_retention=False) -> DataFrame:
        """The files the cleanup would remove, as a DataFrame; nothing is deleted."""
        action = self._action(table, older_than, before_version, delete_unverified,
                              error_if_tagged_old_versions, options, allow_short_retention)
        return DataFrame(action.dryRun(True).toDataset(), self._spark)

    def cleanup_all(self, root, pattern="*.lance", options=None, **cleanup_options) -> DataFrame:
        """Cleans every table under ``root`` as ``cleanup`` would, one row per table (the rows of
        CALL lance.cleanup_all: table, status, the counters, error). ``cleanup_options`` are the
        catalogue's names (older_than="7d", dry_run=True, ...); an unknown name is an error before
        any table is read; ``options`` are Hadoop settings for the store."""
        option_map = self._jvm.java.util.HashMap()
        for key, value in cleanup_options.items():
            if value is None:
                raise ValueError(f"{key} is None: give a value or leave it out")
            option_map.put(key, str(value).lower() if isinstance(value, bool) else str(value))
        hadoop_map = self._jvm.java.util.HashMap()
        for key, value in (options or {}).items():
            hadoop_map.put(key, value)
        return DataFrame(self._entry.cleanupAll(root, pattern, option_map, hadoop_map), self._spark)
