"""The Spark Connect fallback of lance_maintenance: a session without a JVM gateway gets SQL CALLs.

Run by connector-spark's PySparkConnectFallbackTest (``python3 -m unittest test_lance_maintenance``
in this directory, with ``LANCE_SQL_ARGUMENTS`` set to the parameters of ``lance.cleanup``). PySpark
itself is not installed there (no package index), so a session here is what the module uses of a
Spark Connect session: ``sql()``, and no ``_jvm``. The SQL is then run by a real Spark Connect
server in SparkConnectClusterIT, through ``recorded_calls``."""

import os
import re
import sys
import types
import unittest


def install_pyspark_stub():
    """Lets ``lance_maintenance`` import where PySpark is not installed: the names it imports."""
    try:
        import pyspark.sql  # noqa: F401
    except ImportError:
        sql = types.ModuleType("pyspark.sql")
        sql.DataFrame = type("DataFrame", (), {})
        sql.SparkSession = type("SparkSession", (), {})
        pyspark = types.ModuleType("pyspark")
        pyspark.sql = sql
        sys.modules["pyspark"] = pyspark
        sys.modules["pyspark.sql"] = sql


install_pyspark_stub()
import lance_maintenance  # noqa: E402


class _Row:
    def __init__(self, values):
        self._values = values

    def asDict(self):
        return dict(self._values)


class _Result:
    def __init__(self, rows):
        self._rows = rows

    def collect(self):
        return self._rows


class ConnectSession:
    """What the module may use of a Spark Connect session: ``sql()``; its JVM attributes raise."""

    def __init__(self, counters=None):
        self.statements = []
        self.result = _Result([_Row(counters or {"old_versions": 2, "bytes_removed": 10})])

    def sql(self, statement):
        self.statements.append(statement)
        return self.result

    def __getattr__(self, name):
        # pyspark.sql.connect.session.SparkSession raises PySparkAttributeError for _jvm & co.
        raise AttributeError(f"[JVM_ATTRIBUTE_NOT_SUPPORTED] Attribute `{name}` is not supported in Spark Connect")


def recorded_calls(table, older_than, before_version):
    """The statements the module sends for a dry run, then a cleanup, of ``table``."""
    session = ConnectSession()
    maintenance = lance_maintenance.LanceMaintenance(session)
    maintenance.cleanup_dry_run(table, older_than=older_than, before_version=before_version)
    maintenance.cleanup(table, older_than=older_than, before_version=before_version)
    return session.statements


class ConnectFallbackTest(unittest.TestCase):
    def test_cleanup_is_one_call_with_every_flag_written_out(self):
        session = ConnectSession({"old_versions": 3, "bytes_removed": 1200, "failed_deletes": 0})
        counters = lance_maintenance.LanceMaintenance(session).cleanup("s3a://bucket/t.lance", older_than="7d")

        self.assertEqual(session.statements, [
            "CALL lance.cleanup(table => 's3a://bucket/t.lance', older_than => '7d',"
            " delete_unverified => false, error_if_tagged_old_versions => true, dry_run => false,"
            " allow_short_retention => false, mode => 'full', verify => false)"])
        self.assertEqual(counters, {"old_versions": 3, "bytes_removed": 1200, "failed_deletes": 0})

    def test_dry_run_returns_the_procedures_rows_as_they_are(self):
        session = ConnectSession()
        files = lance_maintenance.LanceMaintenance(session).cleanup_dry_run(
            "/data/t.lance", before_version=12, delete_unverified=True, allow_short_retention=True)

        self.assertIs(files, session.result)
        self.assertEqual(session.statements, [
            "CALL lance.cleanup(table => '/data/t.lance', before_version => 12, delete_unverified => true,"
            " error_if_tagged_old_versions => true, dry_run => true, allow_short_retention => true,"
            " mode => 'full', verify => false)"])

    def test_mode_and_verify_reach_the_call(self):
        session = ConnectSession({"old_versions": 0})
        lance_maintenance.LanceMaintenance(session).cleanup("/data/t.lance", mode="incremental", verify=True)

        self.assertEqual(session.statements, [
            "CALL lance.cleanup(table => '/data/t.lance', delete_unverified => false,"
            " error_if_tagged_old_versions => true, dry_run => false, allow_short_retention => false,"
            " mode => 'incremental', verify => true)"])

    def test_literals_are_quoted_as_the_sql_parser_reads_them(self):
        session = ConnectSession()
        lance_maintenance.LanceMaintenance(session).cleanup(
            "s3a://b/it's \\ here.lance", older_than="2026-01-31T00:00:00Z",
            options={"fs.s3a.endpoint": "http://127.0.0.1:9000", "k'": "v\\"})

        self.assertEqual(session.statements, [
            "CALL lance.cleanup(table => 's3a://b/it\\'s \\\\ here.lance', older_than => '2026-01-31T00:00:00Z',"
            " delete_unverified => false, error_if_tagged_old_versions => true, dry_run => false,"
            " options => map('fs.s3a.endpoint', 'http://127.0.0.1:9000', 'k\\'', 'v\\\\'),"
            " allow_short_retention => false, mode => 'full', verify => false)"])

    def test_a_value_not_taken_as_meant_is_refused_before_any_sql(self):
        session = ConnectSession()
        maintenance = lance_maintenance.LanceMaintenance(session)
        refusals = [
            ({"delete_unverified": None}, "delete_unverified"),
            ({"error_if_tagged_old_versions": "false"}, "error_if_tagged_old_versions"),
            ({"allow_short_retention": 1}, "allow_short_retention"),
            ({"verify": None}, "verify"),
            ({"mode": 2}, "mode"),
            ({"before_version": True}, "before_version"),
            ({"before_version": "12"}, "before_version"),
            ({"older_than": 7}, "older_than"),
            ({"options": {"fs.s3a.connection.maximum": 64}}, "options"),
        ]
        for arguments, name in refusals:
            with self.subTest(arguments=arguments):
                with self.assertRaisesRegex(ValueError, name):
                    maintenance.cleanup("/data/t.lance", **arguments)
                with self.assertRaisesRegex(ValueError, name):
                    maintenance.cleanup_dry_run("/data/t.lance", **arguments)
        with self.assertRaisesRegex(ValueError, "table"):
            maintenance.cleanup(None)
        self.assertEqual(session.statements, [])

    def test_every_argument_it_writes_is_a_parameter_of_the_procedure(self):
        parameters = os.environ.get("LANCE_SQL_ARGUMENTS")
        self.assertIsNotNone(parameters, "run through PySparkConnectFallbackTest, which sets LANCE_SQL_ARGUMENTS")
        session = ConnectSession()
        lance_maintenance.LanceMaintenance(session).cleanup(
            "/t.lance", older_than="1d", before_version=3, options={"k": "v"})
        written = re.findall(r"(\w+) => ", session.statements[0])

        self.assertEqual(len(written), 10)
        self.assertLessEqual(set(written), set(parameters.split(",")))


    def test_expire_versions_is_one_call_with_the_arguments_given(self):
        session = ConnectSession({"old_versions": 5, "bytes_removed": 900})
        counters = lance_maintenance.LanceMaintenance(session).expire_versions(
            "/t.lance", older_than="7d", retain_last=100, dry_run=False, options={"k": "v"})

        self.assertEqual(session.statements, [
            "CALL lance.expire_versions(table => '/t.lance', older_than => '7d', retain_last => 100,"
            " dry_run => false, options => map('k', 'v'))"])
        self.assertEqual(counters, {"old_versions": 5, "bytes_removed": 900})
        written = re.findall(r"(\w+) => ", session.statements[0])
        parameters = os.environ.get("LANCE_EXPIRE_ARGUMENTS")
        self.assertIsNotNone(parameters, "run through PySparkConnectFallbackTest, which sets LANCE_EXPIRE_ARGUMENTS")
        self.assertLessEqual(set(written), set(parameters.split(",")))

    def test_expire_versions_refuses_a_none_before_any_sql(self):
        session = ConnectSession()
        with self.assertRaises(ValueError):
            lance_maintenance.LanceMaintenance(session).expire_versions("/t.lance", dry_run=None)
        self.assertEqual(session.statements, [])

    def test_optimize_all_is_one_call_with_the_arguments_given(self):
        session = ConnectSession()
        lance_maintenance.LanceMaintenance(session).optimize_all(
            "/warehouse/", older_than="0s", target_rows_per_fragment=1000, dry_run=True, options={"k": "v"})

        self.assertEqual(session.statements, [
            "CALL lance.optimize_all(root => '/warehouse/', pattern => '*.lance', older_than => '0s',"
            " target_rows_per_fragment => 1000, dry_run => true, options => map('k', 'v'))"])
        self._assert_arguments_are_parameters("optimize_all", session.statements[0])

    def _parameters_of(self, procedure):
        """The parameter names of ``lance.<procedure>``, as PySparkConnectFallbackTest hands them over."""
        handed = os.environ.get("LANCE_PROCEDURE_PARAMETERS")
        self.assertIsNotNone(handed, "run through PySparkConnectFallbackTest, which sets LANCE_PROCEDURE_PARAMETERS")
        by_name = dict(entry.split("=", 1) for entry in handed.split(";"))
        return set(by_name[procedure].split(","))

    def _assert_arguments_are_parameters(self, procedure, statement):
        written = re.findall(r"(\w+) => ", statement)
        self.assertLessEqual(set(written), self._parameters_of(procedure))

    def test_remove_orphan_files_returns_counters_or_with_a_dry_run_the_files(self):
        session = ConnectSession({"data_files_removed": 2, "old_versions": 0})
        maintenance = lance_maintenance.LanceMaintenance(session)
        counters = maintenance.remove_orphan_files(
            "/t.lance", older_than="3d", inventory="s3a://inv/b/daily/2026-12-01T01-00Z/manifest.json",
            max_deletes=100, options={"k": "v"})
        files = maintenance.remove_orphan_files("/t.lance", dry_run=True, file_list_view="listed_files")

        self.assertEqual(session.statements, [
            "CALL lance.remove_orphan_files(table => '/t.lance', older_than => '3d',"
            " inventory => 's3a://inv/b/daily/2026-12-01T01-00Z/manifest.json', max_deletes => 100,"
            " options => map('k', 'v'))",
            "CALL lance.remove_orphan_files(table => '/t.lance', file_list_view => 'listed_files', dry_run => true)"])
        self.assertEqual(counters, {"data_files_removed": 2, "old_versions": 0})
        self.assertIs(files, session.result)
        for statement in session.statements:
            self._assert_arguments_are_parameters("remove_orphan_files", statement)

    def test_describe_storage_is_one_call_returning_the_procedures_rows(self):
        session = ConnectSession()
        report = lance_maintenance.LanceMaintenance(session).describe_storage(
            "/t.lance", windows="0s,7d", older_than="7d", file_list_view="listed_files")

        self.assertIs(report, session.result)
        self.assertEqual(session.statements, [
            "CALL lance.describe_storage(table => '/t.lance', windows => '0s,7d',"
            " file_list_view => 'listed_files', older_than => '7d')"])
        self._assert_arguments_are_parameters("describe_storage", session.statements[0])

    def test_the_tag_commands_and_the_history_are_calls_of_their_procedures(self):
        session = ConnectSession({"tag": "keep", "branch": None, "version": 4})
        maintenance = lance_maintenance.LanceMaintenance(session)
        created = maintenance.create_tag("/t.lance", "keep", 4)
        maintenance.move_tag("/t.lance", "keep", 5, branch="dev")
        maintenance.delete_tag("/t.lance", "keep", options={"k": "v"})
        history = maintenance.maintenance_history("/t.lance", limit=10)

        self.assertEqual(created, {"tag": "keep", "branch": None, "version": 4})
        self.assertIs(history, session.result)
        self.assertEqual(session.statements, [
            "CALL lance.create_tag(table => '/t.lance', tag => 'keep', version => 4)",
            "CALL lance.move_tag(table => '/t.lance', tag => 'keep', version => 5, branch => 'dev')",
            "CALL lance.delete_tag(table => '/t.lance', tag => 'keep', options => map('k', 'v'))",
            "CALL lance.maintenance_history(table => '/t.lance', limit => 10)"])
        for procedure, statement in zip(["create_tag", "move_tag", "delete_tag", "maintenance_history"], session.statements):
            self._assert_arguments_are_parameters(procedure, statement)

    def test_the_new_wrappers_refuse_a_value_not_taken_as_meant_before_any_sql(self):
        session = ConnectSession()
        maintenance = lance_maintenance.LanceMaintenance(session)
        refusals = [
            (lambda: maintenance.remove_orphan_files("/t.lance", dry_run=None), "dry_run"),
            (lambda: maintenance.remove_orphan_files("/t.lance", inventory=None), "inventory"),
            (lambda: maintenance.describe_storage(None), "table"),
            (lambda: maintenance.create_tag("/t.lance", "keep", True), "version"),
            (lambda: maintenance.create_tag("/t.lance", "keep", "4"), "version"),
            (lambda: maintenance.delete_tag("/t.lance", None), "tag"),
            (lambda: maintenance.maintenance_history("/t.lance", limit="10"), "limit"),
        ]
        for call, name in refusals:
            with self.subTest(name=name):
                with self.assertRaisesRegex(ValueError, name):
                    call()
        self.assertEqual(session.statements, [])


if __name__ == "__main__":
    unittest.main()
