package dev.lancemaintenance.flink.procedures;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.factories.CatalogFactory;

/**
 * {@code CREATE CATALOG lance WITH ('type' = 'lance-maintenance', 'storage.fs.s3a.endpoint' = ...)}:
 * a {@link LanceFlinkCatalog}; options prefixed {@code storage.} become the Hadoop configuration of
 * the tables' store, options prefixed {@code sdk.} the Lance SDK's storage options for compaction
 * (e.g. {@code 'sdk.aws_region'}); both may hold secrets and are never logged.
 */
public final class LanceFlinkCatalogFactory implements CatalogFactory {
  public static final String IDENTIFIER = "lance-maintenance";
  static final String STORAGE_PREFIX = "storage.";
  static final String SDK_PREFIX = "sdk.";

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of();
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    return Set.of();
  }

  @Override
  public Catalog createCatalog(Context context) {
    Map<String, String> storageOptions = new HashMap<>();
    Map<String, String> sdkStorageOptions = new HashMap<>();
    for (Map.Entry<String, String> option : context.getOptions().entrySet()) {
      if (option.getKey().startsWith(STORAGE_PREFIX)) {
        storageOptions.put(option.getKey().substring(STORAGE_PREFIX.length()), option.getValue());
      } else if (option.getKey().startsWith(SDK_PREFIX)) {
        sdkStorageOptions.put(option.getKey().substring(SDK_PREFIX.length()), option.getValue());
      } else if (!option.getKey().equals("type") && !option.getKey().equals("property-version")) {
        throw new IllegalArgumentException(
            "Catalog " + context.getName() + ": unsupported option '" + option.getKey()
                + "' (give storage settings as 'storage.<hadoop key>' and 'sdk.<lance storage option>')");
      }
    }
    return new LanceFlinkCatalog(context.getName(), storageOptions, sdkStorageOptions);
  }
}
