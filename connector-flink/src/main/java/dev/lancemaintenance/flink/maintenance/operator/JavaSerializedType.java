package dev.lancemaintenance.flink.maintenance.operator;

import java.io.Serializable;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.runtime.state.JavaSerializer;

/**
 * Flink type information for the few low-volume records whose fields are immutable JDK collections
 * ({@code ManifestSlice}, {@code MarkSummary}, the plan's files of a {@code ListingTask}) or an
 * {@code Optional} ({@code OptimizeResult}):
 * Flink's POJO analysis would hand those fields to Kryo, which cannot rebuild {@code List.copyOf} or
 * {@code Map.copyOf} values, nor (Flink 1.20's Kryo) write a record. One record per slice or per
 * run, so Java serialization costs nothing that matters; per-file records stay POJOs.
 */
final class JavaSerializedType<T extends Serializable> extends TypeInformation<T> {
  private final Class<T> type;

  JavaSerializedType(Class<T> type) {
    this.type = type;
  }

  @Override
  public boolean isBasicType() {
    return false;
  }

  @Override
  public boolean isTupleType() {
    return false;
  }

  @Override
  public int getArity() {
    return 1;
  }

  @Override
  public int getTotalFields() {
    return 1;
  }

  @Override
  public Class<T> getTypeClass() {
    return type;
  }

  @Override
  public boolean isKeyType() {
    return false;
  }

  @Override
  public TypeSerializer<T> createSerializer(SerializerConfig config) {
    return new JavaSerializer<>();
  }

  /**
   * The same for Flink 1.20, where this form is the abstract one (2.x removed it): no
   * {@code @Override}, so the one source compiles on either line.
   */
  @Deprecated
  public TypeSerializer<T> createSerializer(ExecutionConfig config) {
    return new JavaSerializer<>();
  }

  @Override
  public String toString() {
    return "JavaSerialized(" + type.getName() + ")";
  }

  @Override
  public boolean equals(Object obj) {
    return obj instanceof JavaSerializedType<?> other && other.type.equals(type);
  }

  @Override
  public int hashCode() {
    return type.hashCode();
  }

  @Override
  public boolean canEqual(Object obj) {
    return obj instanceof JavaSerializedType;
  }
}
