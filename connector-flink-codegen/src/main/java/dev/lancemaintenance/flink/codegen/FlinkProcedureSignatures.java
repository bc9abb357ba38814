package dev.lancemaintenance.flink.codegen;

import static dev.lancemaintenance.flink.codegen.ProcedureSignature.bigint;
import static dev.lancemaintenance.flink.codegen.ProcedureSignature.string;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.compaction.CompactionOption;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.expire.ExpireVersionsAction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Every Flink SQL procedure's signature, and the build step that writes them: {@code main(outputDir)}
 * writes one {@code <Name>Signature} class per procedure class into {@code
 * outputDir/dev/lancemaintenance/flink/procedures/} ({@link SignatureSource}). The options come
 * from the catalogues in common, so a catalogue option reaches {@code CALL sys.<procedure>} on every
 * Flink line when the line is built; the procedure's own arguments are listed here.
 */
public final class FlinkProcedureSignatures {
  static final String PACKAGE = "dev.lancemaintenance.flink.procedures";

  private static final ProcedureSignature.Argument TABLE = string("table");
  private static final ProcedureSignature.Argument ROOT = string("root");
  private static final ProcedureSignature.Argument PATTERN = string("pattern");

  private static final String CLEANUP = "dev.lancemaintenance.cleanup.CleanupOption#CATALOGUE";
  private static final String POLICY = "dev.lancemaintenance.cleanup.CleanupOption#policyOptions()";

  /** In the order of {@code LanceFlinkCatalog.listProcedures}. */
  static final List<ProcedureSignature> ALL = List.of(
      new ProcedureSignature("FlinkCleanupProcedure", List.of("cleanup"), List.of(TABLE),
          CLEANUP, CleanupOption.CATALOGUE.options(), "COUNTERS_ROW"),
      new ProcedureSignature("FlinkCleanupAllProcedure", List.of("cleanup_all"), List.of(ROOT, PATTERN),
          CLEANUP, CleanupOption.CATALOGUE.options(), "FLEET_CLEANUP_ROW"),
      new ProcedureSignature("FlinkCleanupFilesProcedure", List.of("cleanup_files"), List.of(TABLE),
          POLICY, CleanupOption.policyOptions(), "FILE_ROW"),
      new ProcedureSignature("FlinkCompactProcedure", List.of("compact"), List.of(TABLE),
          "dev.lancemaintenance.compaction.CompactionOption#CATALOGUE", CompactionOption.CATALOGUE.options(),
          "COMPACT_ROW"),
      new ProcedureSignature("FlinkOptimizeProcedure", List.of("optimize"), List.of(TABLE),
          "dev.lancemaintenance.compaction.OptimizeAction#OPTIONS", OptimizeAction.OPTIONS.options(),
          "OPTIMIZE_ROW"),
      ProcedureSignature.own("FlinkTagProcedure", List.of("create_tag", "move_tag"),
          List.of(TABLE, string("tag"), bigint("version"), string("branch")), "TAG_ROW"),
      ProcedureSignature.own("FlinkDeleteTagProcedure", List.of("delete_tag"),
          List.of(TABLE, string("tag")), "TAG_ROW"),
      new ProcedureSignature("FlinkRemoveOrphanFilesProcedure", List.of("remove_orphan_files"), List.of(TABLE),
          "dev.lancemaintenance.cleanup.CleanupOption#ORPHAN_FILES_CATALOGUE",
          CleanupOption.ORPHAN_FILES_CATALOGUE.options(), "COUNTERS_ROW"),
      new ProcedureSignature("FlinkDescribeStorageProcedure", List.of("describe_storage"),
          List.of(TABLE, string("windows")), POLICY, CleanupOption.policyOptions(), "STORAGE_ROW"),
      new ProcedureSignature("FlinkDescribeStorageAllProcedure", List.of("describe_storage_all"),
          List.of(ROOT, PATTERN), POLICY, CleanupOption.policyOptions(), "FLEET_DESCRIBE_ROW"),
      ProcedureSignature.own("FlinkMaintenanceHistoryProcedure", List.of("maintenance_history"),
          List.of(TABLE, bigint("limit")), "HISTORY_ROW"),
      new ProcedureSignature("FlinkExpireVersionsProcedure", List.of("expire_versions"), List.of(TABLE),
          "dev.lancemaintenance.expire.ExpireVersionsAction#OPTIONS", ExpireVersionsAction.OPTIONS,
          "COUNTERS_ROW"),
      new ProcedureSignature("FlinkOptimizeAllProcedure", List.of("optimize_all"), List.of(ROOT, PATTERN),
          "dev.lancemaintenance.compaction.OptimizeAction#OPTIONS", OptimizeAction.OPTIONS.options(),
          "FLEET_OPTIMIZE_ROW"));

  private FlinkProcedureSignatures() {}

  /** @param args the directory of generated sources (the package's directories are made below it) */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: FlinkProcedureSignatures <generated-sources directory>");
    }
    Path directory = Path.of(args[0]).resolve(PACKAGE.replace('.', '/'));
    Files.createDirectories(directory);
    for (ProcedureSignature signature : ALL) {
      Path file = directory.resolve(signature.signatureClass() + ".java");
      String source = SignatureSource.of(signature);
      // Unchanged sources keep their time stamps, so the compiler's incremental check stays quiet.
      if (!Files.exists(file) || !Files.readString(file, StandardCharsets.UTF_8).equals(source)) {
        Files.writeString(file, source, StandardCharsets.UTF_8);
      }
    }
  }
}
