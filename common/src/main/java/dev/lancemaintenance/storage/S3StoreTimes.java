package dev.lancemaintenance.storage;

import java.io.IOException;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.Invoker;
import org.apache.hadoop.fs.s3a.S3AFileSystem;
import org.apache.hadoop.fs.s3a.S3AUtils;
import org.apache.hadoop.fs.store.audit.AuditSpan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link StoreTimes} on S3 through s3a's own client (its credentials, endpoint, retries and audit
 * spans, as {@link S3KeyRangeListing} reaches it). Not where s3a changes what a listing shows
 * (client-side encryption).
 *
 * <p>The horizon is the {@code Date} of the {@code ListMultipartUploads} response (the store's clock,
 * one-second resolution, truncated: never later than the store's time), lowered to the oldest open
 * upload's {@code Initiated}: S3 stamps an object completed from an upload with that time. s3proxy's
 * in-memory store answers with the time of the listing instead (checked in stop 34), which is still
 * before the time it stamps on the completed object; all the rule needs.
 */
final class S3StoreTimes implements StoreTimes {
  private static final Logger LOG = LoggerFactory.getLogger(S3StoreTimes.class);

  private final S3AFileSystem fs;
  private final S3Client client;
  private final Invoker invoker;

  private S3StoreTimes(S3AFileSystem fs, S3Client client) {
    this.fs = fs;
    this.client = client;
    this.invoker = fs.createStoreContext().getInvoker();
  }

  /** The store times of {@code fs}; null where s3a lists otherwise. */
  public static StoreTimes open(FileSystem fs) {
    if (!(fs instanceof S3AFileSystem s3a) || s3a.isCSEEnabled()) {
      return null;
    }
    return new S3StoreTimes(s3a, s3a.getS3AInternals().getAmazonS3Client("bounding the times a listing may miss"));
  }

  @Override
  public OptionalLong horizonMillis(Path root) {
    String prefix = keyPrefix(root);
    AuditSpan span = null;
    try {
      span = fs.createSpan("op_list_uploads", root.toString(), null);
      long horizon = Long.MAX_VALUE;
      String keyMarker = null;
      String uploadMarker = null;
      while (true) {
        ListMultipartUploadsRequest.Builder request = ListMultipartUploadsRequest.builder()
            .bucket(fs.getBucket()).prefix(prefix);
        if (keyMarker != null) {
          request.keyMarker(keyMarker).uploadIdMarker(uploadMarker);
        }
        ListMultipartUploadsRequest built = request.build();
        ListMultipartUploadsResponse page = invoker.retry("list uploads", prefix, true,
            () -> client.listMultipartUploads(built));
        Optional<String> date = page.sdkHttpResponse().firstMatchingHeader("Date");
        if (date.isEmpty()) {
          return OptionalLong.empty();
        }
        horizon = Math.min(horizon, ZonedDateTime.parse(date.get(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli());
        for (MultipartUpload upload : page.uploads()) {
          Instant initiated = upload.initiated();
          if (initiated == null) {
            return OptionalLong.empty();
          }
          horizon = Math.min(horizon, initiated.toEpochMilli());
        }
        if (!Boolean.TRUE.equals(page.isTruncated())) {
          return OptionalLong.of(horizon);
        }
        keyMarker = page.nextKeyMarker();
        uploadMarker = page.nextUploadIdMarker();
      }
    } catch (IOException | RuntimeException e) {
      // A store that does not answer cannot bound the times: the run lists, and says why.
      LOG.info("lance cleanup {}: the open uploads could not be listed, every run lists ({})", root, e.toString());
      return OptionalLong.empty();
    } finally {
      if (span != null) {
        span.deactivate();
      }
    }
  }

  @Override
  public List<FileStatus> filesWithPrefix(Path root, String relativePrefix) throws IOException {
    String prefix = keyPrefix(root) + relativePrefix;
    AuditSpan span = fs.createSpan("op_list_files", root.toString(), null);
    try {
      List<FileStatus> files = new ArrayList<>();
      String token = null;
      do {
        ListObjectsV2Request.Builder request = fs.getRequestFactory().newListObjectsV2RequestBuilder(prefix, null, 1000);
        if (token != null) {
          request.continuationToken(token);
        }
        ListObjectsV2Request built = request.build();
        ListObjectsV2Response page = invoker.retry("list", prefix, true, () -> client.listObjectsV2(built));
        for (S3Object object : page.contents()) {
          if (object.key().endsWith("/") || S3AUtils.objectRepresentsDirectory(object.key())) {
            continue;
          }
          Path path = fs.keyToQualifiedPath(object.key());
          files.add(S3AUtils.createFileStatus(
              path, object, fs.getDefaultBlockSize(path), fs.getUsername(), object.eTag(), null, object.size()));
        }
        token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
      } while (token != null);
      return files;
    } finally {
      span.deactivate();
    }
  }

  private String keyPrefix(Path root) {
    return S3AUtils.maybeAddTrailingSlash(fs.pathToKey(fs.makeQualified(root)));
  }
}
