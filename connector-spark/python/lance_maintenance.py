"""Lance table maintenance from PySpark: through the JVM gateway, or through SQL on Spark Connect.

Needs the connector's bundle jar on the driver and executors, e.g.
``spark-submit --jars lance-maintenance-spark-<line>_<scala>-<version>.jar`` or a cluster library; no SQL
extension or catalog configuration is needed::

    from lance_maintenance import LanceMaintenance

    lm = LanceMaintenance(spark)
    result = lm.cleanup("s3a://bucket/events.lance", older_than="7d")           # dict of counters
    daily = lm.cleanup("s3a://bucket/events.lance", older_than="7d", mode="incremental")
    files = lm.cleanup_dry_run("s3a://bucket/events.lance", older_than="7d")    # DataFrame, one row per file
    fleet = lm.cleanup_all("s3a://bucket/warehouse/", older_than="7d", dry_run=True)  # DataFrame, one row per table
    orphans = lm.remove_orphan_files("s3a://bucket/events.lance", older_than="3d")  # dict of counters
    report = lm.describe_storage("s3a://bucket/events.lance", windows="0s,1d,7d")  # DataFrame
    lm.create_tag("s3a://bucket/events.lance", "before-backfill", 41)              # dict: tag, branch, version
    runs = lm.maintenance_history("s3a://bucket/events.lance")                  # DataFrame, newest run first

``older_than`` takes what ``CALL lance.cleanup`` takes: a duration ('7d', '36h', 'PT2H') or an ISO
instant ('2026-01-31T00:00:00Z'). The dry run's DataFrame (path, kind, bytes, reason) is computed on
the executors as it is read, so it can be written out or filtered without collecting it.

The tag commands and ``maintenance_history`` always run their ``CALL`` through ``spark.sql``, so the
session needs the ``lance`` catalog for them (``spark.sql.catalog.lance`` on Spark 4, the session
extension on 3.5).

A Spark Connect session (``sc://``, Databricks shared and serverless compute) has no JVM gateway:
there the same calls run ``CALL lance.cleanup(...)`` with the same arguments through ``spark.sql``,
so the server needs the bundle and the ``lance`` catalog (``spark.sql.catalog.lance`` on Spark 4, the
session extension on 3.5). The results have the same shape; the dry run's rows then come back
through the server's driver, as every procedure's do.
"""

from pyspark.sql import DataFrame, SparkSession

__all__ = ["LanceMaintenance"]


class LanceMaintenance:
    """Wraps ``dev.lancemaintenance.spark.LanceMaintenance`` of the session's JVM, or ``CALL lance.*``."""

    def __init__(self, spark: SparkSession):
        self._spark = spark
        self._jvm = _jvm_gateway(spark)
        if self._jvm is not None:
            self._entry = self._jvm.dev.lancemaintenance.spark.LanceMaintenance.of(spark._jsparkSession)

    def _action(self, table, older_than, before_version, delete_unverified,
                error_if_tagged_old_versions, options, allow_short_retention, mode="full", verify=False):
        options_map = self._jvm.java.util.HashMap()
        for key, value in (options or {}).items():
            options_map.put(key, value)
        action = self._entry.cleanup(table, options_map)
        if older_than is not None:
            now = self._jvm.java.time.Instant.now()
            action.beforeTimestamp(
                self._jvm.dev.lancemaintenance.cleanup.OlderThan.beforeTimestamp(older_than, now))
        if before_version is not None:
            action.beforeVersion(before_version)
        action.deleteUnverified(bool(delete_unverified))
        action.errorIfTaggedOldVersions(bool(error_if_tagged_old_versions))
        # delete_unverified races concurrent writers: a window under the retention guard (1 day)
        # is refused unless this says nothing writes to the table.
        action.allowShortRetention(bool(allow_short_retention))
        # 'incremental' reads only what the maintenance ledger cannot answer; the same files go.
        action.markMode(self._jvm.dev.lancemaintenance.cleanup.MarkMode.ofOption(mode))
        action.verify(bool(verify))
        return action

    def cleanup(self, table, older_than=None, before_version=None, delete_unverified=False,
                error_if_tagged_old_versions=True, options=None, allow_short_retention=False,
                mode="full", verify=False):
        """Runs the cleanup and returns its result row as a dict (the columns of CALL lance.cleanup:
        the counters, then mark_mode, manifests_read and resumed_from)."""
        arguments = (table, older_than, before_version, delete_unverified,
                     error_if_tagged_old_versions, options, allow_short_retention, mode, verify)
        _check(*arguments)
        if self._jvm is None:
            return _result_row(self._spark.sql(cleanup_call(*arguments)).collect()[0].asDict())
        return _result_row(self._action(*arguments).execute().row())

    def cleanup_dry_run(self, table, older_than=None, before_version=None, delete_unverified=False,
                        error_if_tagged_old_versions=True, options=None,
                        allow_short_retention=False, mode="full", verify=False) -> DataFrame:
        """The files the cleanup would remove, as a DataFrame; nothing is deleted."""
        arguments = (table, older_than, before_version, delete_unverified,
                     error_if_tagged_old_versions, options, allow_short_retention, mode, verify)
        _check(*arguments)
        if self._jvm is None:
            return self._spark.sql(cleanup_call(*arguments, dry_run=True))
        return DataFrame(self._action(*arguments).dryRun(True).toDataset(), self._spark)

    def cleanup_all(self, root, pattern="*.lance", options=None, **cleanup_options) -> DataFrame:
        """Cleans every table under ``root`` as ``cleanup`` would, one row per table (the rows of
        CALL lance.cleanup_all: table, status, the counters, error). ``cleanup_options`` are the
        catalogue's names (older_than="7d", dry_run=True, ...); an unknown name is an error before
        any table is read; ``options`` are Hadoop settings for the store."""
        return self._fleet("cleanup_all", "cleanupAll", root, pattern, options, cleanup_options)

    def describe_storage_all(self, root, pattern="*.lance", options=None, **policy_options) -> DataFrame:
        """The storage report of every table under ``root`` as ``describe_storage`` would make it,
        one row of totals per table (the rows of CALL lance.describe_storage_all). ``policy_options``
        are the cleanup's policy names (older_than="7d", ...); deletes nothing."""
        return self._fleet("describe_storage_all", "describeStorageAll", root, pattern, options, policy_options)

    def optimize_all(self, root, pattern="*.lance", options=None, **optimize_options) -> DataFrame:
        """Optimizes every table under ``root`` as ``CALL lance.optimize`` would (compaction, then
        cleanup), one row per table (the rows of CALL lance.optimize_all: table, status, the
        counters, error). ``optimize_options`` are optimize's names (older_than="0s",
        target_rows_per_fragment=1048576, dry_run=True, ...); ``options`` are the Lance SDK's
        storage options for the compactions, as in CALL lance.optimize."""
        return self._fleet("optimize_all", "optimizeAll", root, pattern, options, optimize_options)

    def _fleet(self, procedure, java_method, root, pattern, options, named_options) -> DataFrame:
        call = fleet_call(procedure, root, pattern, options, **named_options)
        if self._jvm is None:
            return self._spark.sql(call)
        return DataFrame(getattr(self._entry, java_method)(root, pattern, self._option_map(named_options),
                                                           self._java_map(options or {})), self._spark)

    def expire_versions(self, table, options=None, **expire_options):
        """Runs expire_versions and returns its counters as a dict (the columns of CALL
        lance.expire_versions): the manifests of the versions the policy expires go, without
        reading the kept ones; a later ``cleanup`` with the same policy removes their files.
        ``expire_options`` are its names (older_than="7d", retain_last=100, dry_run=True, ...); an
        unknown name is an error before anything is read; ``options`` are Hadoop settings."""
        call = expire_versions_call(table, options, **expire_options)
        if self._jvm is None:
            return _result_row(self._spark.sql(call).collect()[0].asDict())
        action = self._entry.expireVersions(table, self._java_map(options or {}))
        return _result_row(action.options(self._option_map(expire_options)).execute().row())

    def remove_orphan_files(self, table, options=None, file_list_view=None, **orphan_options):
        """Runs remove_orphan_files: no version expires, and the files under the table's managed
        directories that no version references and that are older than ``older_than`` (default 7
        days) go. Returns its counters as a dict, or with ``dry_run=True`` the files that would go as
        a DataFrame (path, kind, bytes, reason). ``orphan_options`` are its names (older_than="3d",
        max_deletes=1000, inventory="s3a://.../manifest.json", ...); an unknown name is an error
        before anything is read. ``file_list_view`` lists the table from a view of file paths (path,
        size, last_modified); ``options`` are Hadoop settings for the store."""
        call = table_call("remove_orphan_files", table, options, file_list_view=file_list_view, **orphan_options)
        dry_run = orphan_options.get("dry_run") is True
        if self._jvm is None:
            result = self._spark.sql(call)
            return result if dry_run else _counters(result.collect()[0])
        action = self._entry.removeOrphanFiles(table, self._java_map(options or {}))
        action.options(self._option_map(orphan_options))
        if file_list_view is not None:
            action.fileListView(file_list_view)
        if dry_run:
            return DataFrame(action.toDataset(), self._spark)
        return {key: int(value) for key, value in action.execute().namedCounters().items()}

    def describe_storage(self, table, options=None, windows=None, file_list_view=None, **policy_options) -> DataFrame:
        """The storage report of the table as a DataFrame (the rows of CALL lance.describe_storage:
        section, name, versions, files, bytes, detail): what its files are for, what a cleanup with
        ``policy_options`` (older_than="7d", ...) frees now, and what each of ``windows``
        ("0s,1h,1d,7d,30d" by default) would free. Deletes nothing."""
        call = table_call("describe_storage", table, options, windows=windows, file_list_view=file_list_view,
                          **policy_options)
        if self._jvm is None:
            return self._spark.sql(call)
        named = dict(policy_options)
        for key, value in (("windows", windows), ("file_list_view", file_list_view)):
            if value is not None:
                named[key] = value
        return DataFrame(self._entry.describeStorage(table, self._option_map(named), self._java_map(options or {})),
                         self._spark)

    def create_tag(self, table, tag, version, branch=None, options=None):
        """Tags ``version`` of the table (of ``branch``, main by default) in the format the Lance SDK
        reads; refuses a name already taken. Returns the tag as a dict (tag, branch, version)."""
        return self._tag("create_tag", table, tag=tag, version=version, branch=branch, options=options)

    def move_tag(self, table, tag, version, branch=None, options=None):
        """Points the existing ``tag`` at ``version``. Returns the tag as a dict (tag, branch, version)."""
        return self._tag("move_tag", table, tag=tag, version=version, branch=branch, options=options)

    def delete_tag(self, table, tag, options=None):
        """Deletes ``tag``, so a cleanup may remove the version it kept. Returns what it named as a dict."""
        return self._tag("delete_tag", table, tag=tag, options=options)

    def _tag(self, procedure, table, tag, version=None, branch=None, options=None):
        if not isinstance(tag, str):
            raise ValueError(f"tag takes a string, not {tag!r}")
        named = {"tag": tag}
        if procedure != "delete_tag":
            if isinstance(version, bool) or not isinstance(version, int):
                raise ValueError(f"version takes an integer, not {version!r}")
            named["version"] = version
            if branch is not None:
                named["branch"] = branch
        return self._spark.sql(table_call(procedure, table, options, **named)).collect()[0].asDict()

    def maintenance_history(self, table, limit=None, options=None) -> DataFrame:
        """The table's maintenance runs from their records, newest first, one row per run (the rows of
        CALL lance.maintenance_history); at most ``limit`` runs (100 by default). Deletes nothing."""
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)):
            raise ValueError(f"limit takes an integer, not {limit!r}")
        return self._spark.sql(table_call("maintenance_history", table, options, limit=limit))

    def _option_map(self, named_options):
        """Catalogue options by SQL name as the Java API's ``options(Map)`` parses them."""
        return self._java_map({key: _boolean(value) if isinstance(value, bool) else str(value)
                               for key, value in named_options.items()})

    def _java_map(self, entries):
        java_map = self._jvm.java.util.HashMap()
        for key, value in entries.items():
            java_map.put(key, value)
        return java_map

def fleet_call(procedure, root, pattern="*.lance", options=None, **named_options):
    """The ``CALL lance.<procedure>(...)`` statement of a fleet procedure: root, pattern, then the arguments as given."""
    if not isinstance(root, str) or not isinstance(pattern, str):
        raise ValueError(f"root and pattern take strings, not {root!r}, {pattern!r}")
    named = [("root", _string(root)), ("pattern", _string(pattern))]
    return f"CALL lance.{procedure}(" + _named_arguments(named, options, named_options) + ")"


def expire_versions_call(table, options=None, **expire_options):
    """The ``CALL lance.expire_versions(...)`` statement: the table, then its arguments as given."""
    return table_call("expire_versions", table, options, **expire_options)


def table_call(procedure, table, options=None, **named_options):
    """The ``CALL lance.<procedure>(...)`` statement of a procedure on one table: the table, then the
    arguments given (those left at None are left out, so the procedure's defaults apply; a None
    for a catalogue option is refused by ``_named_arguments``)."""
    if not isinstance(table, str):
        raise ValueError(f"table takes a string, not {table!r}")
    own = ("file_list_view", "windows", "limit")
    given = {key: value for key, value in named_options.items() if not (key in own and value is None)}
    return f"CALL lance.{procedure}(" + _named_arguments([("table", _string(table))], options, given) + ")"


def _counters(row):
    """A procedure's counters row as a dict of ints."""
    return {key: int(value) for key, value in row.asDict().items()}


def _named_arguments(named, options, catalogue_options):
    """``name => literal, ...``: the leading arguments, the catalogue options as given (a None is
    an error, never the default), then the Hadoop ``options`` as a map."""
    named = list(named)
    for key, value in catalogue_options.items():
        if value is None:
            raise ValueError(f"{key} is None: give a value or leave it out")
        if isinstance(value, bool):
            named.append((key, _boolean(value)))
        elif isinstance(value, int):
            named.append((key, str(value)))
        elif isinstance(value, str):
            named.append((key, _string(value)))
        else:
            raise ValueError(f"{key} takes a string, an integer or True/False, not {value!r}")
    if options:
        pairs = ", ".join(f"{_string(key)}, {_string(value)}" for key, value in options.items())
        named.append(("options", f"map({pairs})"))
    return ", ".join(f"{name} => {value}" for name, value in named)


def cleanup_call(table, older_than=None, before_version=None, delete_unverified=False,
                 error_if_tagged_old_versions=True, options=None, allow_short_retention=False,
                 mode="full", verify=False, dry_run=False):
    """The ``CALL lance.cleanup(...)`` statement of these arguments, every one named and a literal.

    Arguments left at None are left out, so the procedure applies its own default (older_than: 7
    days), as the JVM path does. Flags are always written out, so a run never depends on a default.
    """
    _check(table, older_than, before_version, delete_unverified, error_if_tagged_old_versions, options,
           allow_short_retention, mode, verify, dry_run)
    named = [("table", _string(table))]
    if older_than is not None:
        named.append(("older_than", _string(older_than)))
    if before_version is not None:
        named.append(("before_version", str(before_version)))
    named += [("delete_unverified", _boolean(delete_unverified)),
              ("error_if_tagged_old_versions", _boolean(error_if_tagged_old_versions)),
              ("dry_run", _boolean(dry_run))]
    if options:
        pairs = ", ".join(f"{_string(key)}, {_string(value)}" for key, value in options.items())
        named.append(("options", f"map({pairs})"))
    named.append(("allow_short_retention", _boolean(allow_short_retention)))
    named += [("mode", _string(mode)), ("verify", _boolean(verify))]
    return "CALL lance.cleanup(" + ", ".join(f"{name} => {value}" for name, value in named) + ")"


def _check(table, older_than, before_version, delete_unverified, error_if_tagged_old_versions, options,
           allow_short_retention, mode="full", verify=False, dry_run=False):
    """Refuses, before anything runs, a value the procedure would not take as meant."""
    for name, value in (("table", table), ("older_than", older_than), ("mode", mode)):
        if value is not None and not isinstance(value, str):
            raise ValueError(f"{name} takes a string, not {value!r}")
    if table is None:
        raise ValueError("table is required")
    # bool is an int in Python; a flag where a version belongs is a mistake, not version 0 or 1.
    if before_version is not None and (isinstance(before_version, bool) or not isinstance(before_version, int)):
        raise ValueError(f"before_version takes an integer, not {before_version!r}")
    # A None for an argument that decides what is deleted is an error, never the default.
    for name, value in (("delete_unverified", delete_unverified),
                        ("error_if_tagged_old_versions", error_if_tagged_old_versions),
                        ("allow_short_retention", allow_short_retention),
                        ("verify", verify),
                        ("dry_run", dry_run)):
        if not isinstance(value, bool):
            raise ValueError(f"{name} takes True or False, not {value!r}")
    for key, value in (options or {}).items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise ValueError(f"options take string keys and values, not {key!r}: {value!r}")


def _result_row(columns):
    """A result row as a dict: the counters as ints, mark_mode as the string it is."""
    return {key: value if isinstance(value, str) else int(value) for key, value in columns.items()}


def _jvm_gateway(spark):
    """The session's Py4J JVM view, or None on Spark Connect, whose session has none."""
    try:
        return spark._jvm
    except Exception:  # pyspark.sql.connect's session raises its own error for JVM attributes
        return None


def _string(value):
    """A Spark SQL string literal: quotes and backslashes escaped, as the SQL parser reads them."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _boolean(value):
    return "true" if value else "false"
