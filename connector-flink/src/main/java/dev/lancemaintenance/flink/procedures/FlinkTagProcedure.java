package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import dev.lancemaintenance.format.Tag;
import java.util.Optional;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.create_tag(`table` => '...', tag => 'release', version => 3, branch =>
 * ...)} and {@code sys.move_tag(...)} (same arguments): the table's tags in the SDK's own format
 * ({@link dev.lancemaintenance.tags.TableTags}, the same rules and errors as the CLI's {@code tag}
 * and Spark's {@code CALL lance.create_tag}). One row: the tag, its branch (NULL for main) and its
 * version. Runs in the client: a tag is one small file, no job.
 *
 * <p>Flink drops a misspelt argument name before the call, so a lost {@code version} arrives as
 * null and is refused here; a lost {@code branch} tags main's version of that number, which exists
 * or is refused, and never deletes anything.
 */
public final class FlinkTagProcedure extends FlinkTagSignature {
  public static final String CREATE_NAME = "create_tag";
  public static final String MOVE_NAME = "move_tag";

  /** What the procedure does to the tag. */
  enum Action {
    CREATE,
    MOVE
  }

  private final Action action;

  FlinkTagProcedure(Action action, CatalogSettings settings) {
    super(settings);
    this.action = action;
  }

  @Override
  Row[] run(ProcedureContext context, ProcedureCall call) {
    String table = call.table();
    String name = call.required("tag", String.class);
    long taggedVersion = call.required("version", Long.class);
    Optional<String> branch = call.argument("branch", String.class);
    Tag result = LanceFlinkMaintenance.tags(table, storageOptions, clock, tags -> switch (action) {
      case CREATE -> tags.create(name, taggedVersion, branch);
      case MOVE -> tags.move(name, taggedVersion, branch);
    });
    return new Row[] {ResultRows.tag(result)};
  }
}
