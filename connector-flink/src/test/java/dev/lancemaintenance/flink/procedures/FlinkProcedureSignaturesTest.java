package dev.lancemaintenance.flink.procedures;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.MaintenanceOption.Type;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.compaction.CompactionOption;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.expire.ExpireVersionsAction;
import java.lang.reflect.Method;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.junit.jupiter.api.Test;

/**
 * Every procedure of the Lance catalog declares, on its {@code call} method, its own arguments and
 * then its catalogue's options: names, SQL types, optionality and order, and Java parameters of the
 * types Flink hands those SQL types in. The signatures are generated from the catalogues when the
 * module is built (connector-flink-codegen); this holds them to the catalogues from the outside.
 */
class FlinkProcedureSignaturesTest {
  private static final Map<Type, String> SQL_TYPES = Map.of(
      Type.CUTOFF, "STRING", Type.STRING, "STRING", Type.LONG, "BIGINT", Type.INT, "INT", Type.DOUBLE, "DOUBLE",
      Type.BOOLEAN, "BOOLEAN");
  private static final Map<String, Class<?>> JAVA_TYPES = Map.of(
      "STRING", String.class, "BIGINT", Long.class, "INT", Integer.class, "DOUBLE", Double.class,
      "BOOLEAN", Boolean.class);

  private final LanceFlinkCatalog catalog = new LanceFlinkCatalog("lance", Map.of(), Map.of(), Clock.systemUTC());

  /** {@code name TYPE} and whether optional, as the docs state each procedure's arguments. */
  private static Map<String, List<String>> expected() {
    Map<String, List<String>> expected = new LinkedHashMap<>();
    expected.put("cleanup", arguments(List.of("table STRING"), CleanupOption.CATALOGUE.options()));
    expected.put("cleanup_all", arguments(List.of("root STRING", "pattern STRING"), CleanupOption.CATALOGUE.options()));
    expected.put("cleanup_files", arguments(List.of("table STRING"), CleanupOption.policyOptions()));
    expected.put("compact", arguments(List.of("table STRING"), CompactionOption.CATALOGUE.options()));
    expected.put("optimize", arguments(List.of("table STRING"), OptimizeAction.OPTIONS.options()));
    List<String> tag = List.of("table STRING", "tag STRING", "version BIGINT", "branch STRING");
    expected.put("create_tag", arguments(tag, List.of()));
    expected.put("move_tag", arguments(tag, List.of()));
    expected.put("delete_tag", arguments(List.of("table STRING", "tag STRING"), List.of()));
    expected.put("remove_orphan_files",
        arguments(List.of("table STRING"), CleanupOption.ORPHAN_FILES_CATALOGUE.options()));
    expected.put("describe_storage",
        arguments(List.of("table STRING", "windows STRING"), CleanupOption.policyOptions()));
    expected.put("describe_storage_all",
        arguments(List.of("root STRING", "pattern STRING"), CleanupOption.policyOptions()));
    expected.put("maintenance_history", arguments(List.of("table STRING", "limit BIGINT"), List.of()));
    expected.put("expire_versions", arguments(List.of("table STRING"), ExpireVersionsAction.OPTIONS));
    expected.put("optimize_all", arguments(List.of("root STRING", "pattern STRING"), OptimizeAction.OPTIONS.options()));
    return expected;
  }

  /** The first argument required, every other one optional (the checks of what must be given are ProcedureCall's). */
  private static List<String> arguments(List<String> own, List<? extends MaintenanceOption> options) {
    List<String> all = new ArrayList<>(own);
    options.forEach(option -> all.add(option.sqlName() + " " + SQL_TYPES.get(option.type())));
    List<String> described = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      described.add(all.get(i) + (i == 0 ? " required" : " optional"));
    }
    return described;
  }

  private static Method call(Procedure procedure) {
    List<Method> calls = Arrays.stream(procedure.getClass().getMethods())
        .filter(method -> method.getName().equals("call"))
        .toList();
    assertThat(calls).as("%s's call methods", procedure.getClass().getSimpleName()).hasSize(1);
    return calls.get(0);
  }

  private static List<String> declared(Method call) {
    List<String> declared = new ArrayList<>();
    for (ArgumentHint argument : call.getAnnotation(ProcedureHint.class).argument()) {
      declared.add(argument.name() + " " + argument.type().value() + (argument.isOptional() ? " optional" : " required"));
    }
    return declared;
  }

  @Test
  void everyProcedureOfTheCatalogHasItsSignatureStated() throws Exception {
    assertThat(catalog.listProcedures(LanceFlinkCatalog.PROCEDURE_DATABASE))
        .containsExactlyInAnyOrderElementsOf(expected().keySet());
  }

  @Test
  void eachCallDeclaresItsOwnArgumentsThenItsCatalogueInOrder() throws Exception {
    for (Map.Entry<String, List<String>> procedure : expected().entrySet()) {
      Method call = call(catalog.getProcedure(new ObjectPath(LanceFlinkCatalog.PROCEDURE_DATABASE, procedure.getKey())));
      assertThat(declared(call)).as("sys.%s", procedure.getKey()).isEqualTo(procedure.getValue());
    }
  }

  @Test
  void eachCallTakesTheJavaTypesFlinkHandsItsSqlTypesIn() throws Exception {
    for (String name : expected().keySet()) {
      Method call = call(catalog.getProcedure(new ObjectPath(LanceFlinkCatalog.PROCEDURE_DATABASE, name)));
      List<Class<?>> expectedTypes = new ArrayList<>(List.of(ProcedureContext.class));
      for (ArgumentHint argument : call.getAnnotation(ProcedureHint.class).argument()) {
        expectedTypes.add(JAVA_TYPES.get(argument.type().value()));
      }
      assertThat(call.getParameterTypes()).as("sys.%s", name).containsExactlyElementsOf(expectedTypes);
    }
  }
}
