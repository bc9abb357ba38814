package dev.lancemaintenance.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * An s3a PUT sends its body with its headers unless the configuration keeps Hadoop's handshake:
 * the interceptor goes to s3a tables only, after any configured, and takes the SDK's header off.
 */
class S3ExpectContinueTest {
  @Test
  void anS3aTableGetsTheOptionOffAndTheInterceptor() {
    Configuration base = new Configuration(false);

    Configuration conf = S3ExpectContinue.configure("s3a", base);

    assertThat(conf.getBoolean(S3ExpectContinue.EXPECT_CONTINUE, true)).isFalse();
    assertThat(conf.getTrimmedStrings(S3ExpectContinue.EXECUTION_INTERCEPTORS)).containsExactly(S3ExpectContinue.INTERCEPTOR);
    assertThat(base.get(S3ExpectContinue.EXECUTION_INTERCEPTORS)).as("the shared configuration is not changed").isNull();
  }

  @Test
  void interceptorsAlreadyConfiguredStayAndComeFirst() {
    Configuration base = new Configuration(false);
    base.set(S3ExpectContinue.EXECUTION_INTERCEPTORS, "com.example.Audit");

    Configuration conf = S3ExpectContinue.configure("s3a", base);

    assertThat(conf.getTrimmedStrings(S3ExpectContinue.EXECUTION_INTERCEPTORS))
        .containsExactly("com.example.Audit", S3ExpectContinue.INTERCEPTOR);
    assertThat(S3ExpectContinue.configure("s3a", conf).getTrimmedStrings(S3ExpectContinue.EXECUTION_INTERCEPTORS))
        .as("added once").containsExactly("com.example.Audit", S3ExpectContinue.INTERCEPTOR);
  }

  @Test
  void aConfigurationThatKeepsTheHandshakeAndOtherStoresAreLeftAsTheyAre() {
    Configuration keeps = new Configuration(false);
    keeps.setBoolean(S3ExpectContinue.EXPECT_CONTINUE, true);
    Configuration other = new Configuration(false);

    assertThat(S3ExpectContinue.configure("s3a", keeps)).isSameAs(keeps);
    assertThat(S3ExpectContinue.configure("hdfs", other)).isSameAs(other);
    assertThat(S3ExpectContinue.configure("file", other)).isSameAs(other);
  }

  @Test
  void theNameS3aLoadsIsTheInterceptorsClass() {
    assertThat(S3ExpectContinue.INTERCEPTOR).isEqualTo(RemoveExpectContinue.class.getName());
  }

  @Test
  void theInterceptorTakesOffTheHeaderTheSdkPutsOnAPutAndNothingElse() {
    SdkHttpRequest put = SdkHttpRequest.builder().method(SdkHttpMethod.PUT).uri(URI.create("http://store/b/k"))
        .putHeader("Expect", "100-continue").putHeader("If-None-Match", "*").putHeader("Content-Length", "42").build();

    SdkHttpRequest sent = new RemoveExpectContinue().modifyHttpRequest(contextOf(put), new ExecutionAttributes());

    assertThat(sent.firstMatchingHeader("Expect")).isEmpty();
    assertThat(sent.firstMatchingHeader("If-None-Match")).contains("*");
    assertThat(sent.firstMatchingHeader("Content-Length")).contains("42");
    SdkHttpRequest get = SdkHttpRequest.builder().method(SdkHttpMethod.GET).uri(URI.create("http://store/b/k")).build();
    assertThat(new RemoveExpectContinue().modifyHttpRequest(contextOf(get), new ExecutionAttributes())).isSameAs(get);
  }

  /** The one thing the interceptor reads of its context: the HTTP request about to be signed. */
  private static Context.ModifyHttpRequest contextOf(SdkHttpRequest request) {
    return new Context.ModifyHttpRequest() {
      @Override
      public SdkHttpRequest httpRequest() {
        return request;
      }

      @Override
      public Optional<RequestBody> requestBody() {
        return Optional.empty();
      }

      @Override
      public Optional<AsyncRequestBody> asyncRequestBody() {
        return Optional.empty();
      }

      @Override
      public SdkRequest request() {
        throw new UnsupportedOperationException("not read");
      }
    };
  }
}
