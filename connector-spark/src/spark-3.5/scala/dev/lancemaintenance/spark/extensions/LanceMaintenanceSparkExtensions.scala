package dev.lancemaintenance.spark.extensions

import org.apache.spark.sql.SparkSessionExtensions

/**
 * The session extension that gives Spark 3.5 our `CALL lance.cleanup(...)`, `lance.compact` and
 * `lance.optimize` (Spark 4 has native procedures and needs none):
 *
 * {{{
 * spark.sql.extensions=dev.lancemaintenance.spark.extensions.LanceMaintenanceSparkExtensions
 * }}}
 *
 * Only the parser is extended: a `CALL` into the `lance` catalog becomes a [[LanceCallCommand]],
 * everything else goes to the parser it wraps, so it chains with other extensions (Iceberg, Delta).
 */
class LanceMaintenanceSparkExtensions extends (SparkSessionExtensions => Unit) {
  override def apply(extensions: SparkSessionExtensions): Unit = {
    extensions.injectParser { case (_, delegate) => new LanceCallParser(delegate) }
  }
}
