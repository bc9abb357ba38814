package dev.lancemaintenance.spark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The Spark session of one test class ({@link SparkTestSession}'s settings): registered as a static
 * {@code @RegisterExtension} field, it starts the session before the class's own {@code @BeforeAll}
 * methods and stops it after its {@code @AfterAll} methods, as {@code S3Bucket} does for a bucket.
 */
public final class SparkSessionPerClass implements BeforeAllCallback, AfterAllCallback {
  private final String master;
  private SparkSession session;

  /** {@code local[2]}: two executor threads, no task retries. */
  public SparkSessionPerClass() {
    this("local[2]");
  }

  /** @param master e.g. {@code local[2,3]} for two threads and up to three attempts per task */
  public SparkSessionPerClass(String master) {
    this.master = master;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    session = SparkTestSession.start(master);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (session != null) {
      session.stop();
      session = null;
    }
  }

  /** The running session; only between the class's before-all and after-all. */
  public SparkSession session() {
    if (session == null) {
      throw new IllegalStateException("the test class's Spark session is not running");
    }
    return session;
  }

  /** {@code query} on the session, as {@link SparkSession#sql} runs it. */
  public Dataset<Row> sql(String query) {
    return session().sql(query);
  }
}
