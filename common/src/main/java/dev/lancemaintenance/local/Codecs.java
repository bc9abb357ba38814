package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.RemovalReason;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.report.ReferenceAge;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.storage.FileEntry;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/** Binary forms of the records the local engine spills. */
final class Codecs {
  private static final FileKind[] KINDS = FileKind.values();
  private static final MarkState[] STATES = MarkState.values();
  private static final RemovalReason[] REASONS = RemovalReason.values();
  private static final FileEntry.EntryType[] ENTRY_TYPES = FileEntry.EntryType.values();

  private Codecs() {}

  static final SpillFile.Codec<ReferenceMark> MARK =
      new SpillFile.Codec<>() {
        @Override
        public void write(DataOutputStream out, ReferenceMark mark) throws IOException {
          out.writeUTF(mark.key());
          out.writeByte(mark.kind().ordinal());
          out.writeByte(mark.state().ordinal());
        }

        @Override
        public ReferenceMark read(DataInputStream in) throws IOException {
          return new ReferenceMark(in.readUTF(), KINDS[in.readByte()], STATES[in.readByte()]);
        }
      };

  static final SpillFile.Codec<FileEntry> FILE =
      new SpillFile.Codec<>() {
        @Override
        public void write(DataOutputStream out, FileEntry file) throws IOException {
          out.writeUTF(file.path());
          out.writeLong(file.size());
          out.writeLong(file.modificationTimeMillis());
          out.writeByte(file.type().ordinal());
        }

        @Override
        public FileEntry read(DataInputStream in) throws IOException {
          return new FileEntry(in.readUTF(), in.readLong(), in.readLong(), ENTRY_TYPES[in.readByte()]);
        }
      };

  static final SpillFile.Codec<CandidateFile> CANDIDATE =
      new SpillFile.Codec<>() {
        @Override
        public void write(DataOutputStream out, CandidateFile file) throws IOException {
          out.writeUTF(file.path());
          out.writeByte(file.kind().ordinal());
          out.writeLong(file.bytes());
          out.writeByte(file.reason().ordinal());
        }

        @Override
        public CandidateFile read(DataInputStream in) throws IOException {
          return new CandidateFile(in.readUTF(), KINDS[in.readByte()], in.readLong(), REASONS[in.readByte()]);
        }
      };

  static final SpillFile.Codec<ReferenceAge> AGE =
      new SpillFile.Codec<>() {
        @Override
        public void write(DataOutputStream out, ReferenceAge age) throws IOException {
          out.writeUTF(age.key());
          out.writeByte(age.kind().ordinal());
          out.writeBoolean(age.referencedByLatest());
          out.writeBoolean(age.pinned());
          out.writeLong(age.newestVersion());
          out.writeLong(age.newestNanos());
          out.writeShort(age.pins().size());
          for (String pin : age.pins()) {
            out.writeUTF(pin);
          }
        }

        @Override
        public ReferenceAge read(DataInputStream in) throws IOException {
          String key = in.readUTF();
          FileKind kind = KINDS[in.readByte()];
          boolean latest = in.readBoolean();
          boolean pinned = in.readBoolean();
          long version = in.readLong();
          long nanos = in.readLong();
          int count = in.readUnsignedShort();
          java.util.Set<String> pins = new java.util.HashSet<>();
          for (int i = 0; i < count; i++) {
            pins.add(in.readUTF());
          }
          return new ReferenceAge(key, kind, latest, pinned, version, nanos, pins);
        }
      };
}
