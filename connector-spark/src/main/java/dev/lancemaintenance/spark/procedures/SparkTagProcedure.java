package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.format.Tag;
import dev.lancemaintenance.spark.LanceMaintenance;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code CALL lance.create_tag(table, tag, version, branch, options)}, {@code lance.move_tag(...)}
 * (same arguments) and {@code lance.delete_tag(table, tag, options)}: the table's tags in the SDK's
 * own format ({@link dev.lancemaintenance.tags.TableTags}), what a cleanup refusing over a tagged
 * old version asks for. One row: the tag, its branch (NULL for main) and its version (for
 * delete_tag, the version it named).
 */
final class SparkTagProcedure extends BaseLanceProcedure {
  /** What the procedure does to the tag. */
  enum Action {
    CREATE("create_tag", "Tags a version of a Lance table (main or a branch); refuses a name already taken."),
    MOVE("move_tag", "Points an existing tag of a Lance table at another version, keeping when it was created."),
    DELETE("delete_tag", "Deletes a tag of a Lance table, so cleanup may remove the version it kept.");

    final String procedureName;
    final String description;

    Action(String procedureName, String description) {
      this.procedureName = procedureName;
      this.description = description;
    }
  }

  static final Parameter TAG = Parameter.required("tag", DataTypes.StringType, "the tag's name");
  static final Parameter VERSION = Parameter.required("version", DataTypes.LongType, "the version the tag names");
  static final Parameter BRANCH =
      Parameter.optional("branch", DataTypes.StringType, "the branch whose version it names; NULL for main");
  static final StructType SCHEMA = new StructType()
      .add("tag", DataTypes.StringType, false)
      .add("branch", DataTypes.StringType, true)
      .add("version", DataTypes.LongType, false);

  private final Action action;

  SparkTagProcedure(Action action, Clock clock) {
    super(action.procedureName, action.description, SCHEMA, clock);
    this.action = action;
  }

  @Override
  public List<Parameter> parameters(Map<String, DataType> givenTypes) {
    return action == Action.DELETE
        ? List.of(SparkCleanupProcedure.TABLE, TAG, SparkCleanupProcedure.OPTIONS)
        : List.of(SparkCleanupProcedure.TABLE, TAG, VERSION, BRANCH, SparkCleanupProcedure.OPTIONS);
  }

  @Override
  public Result call(BoundCall call) {
    ProcedureArgs args = call.args();
    String table = args.requiredString(SparkCleanupProcedure.TABLE);
    String tag = args.requiredString(TAG);
    Tag result = LanceMaintenance.of(SparkSession.active(), clock).tags(table, args.stringMap(SparkCleanupProcedure.OPTIONS),
        tags -> switch (action) {
          case CREATE -> tags.create(tag, version(args), args.string(BRANCH));
          case MOVE -> tags.move(tag, version(args), args.string(BRANCH));
          case DELETE -> tags.delete(tag);
        });
    return Result.of(SCHEMA, new GenericInternalRow(new Object[] {
        UTF8String.fromString(result.name()),
        result.branch().map(UTF8String::fromString).orElse(null),
        result.version()}));
  }

  private static long version(ProcedureArgs args) {
    return args.longValue(VERSION).orElseThrow(
        () -> new IllegalArgumentException("Parameter 'version' is required and was not set"));
  }
}
