<?php
/**
 * The subscription e-mails (cancelled, paused, resumed, skipped, payment method changed), HTML. A theme
 * overrides it by copying it to yourtheme/recurring-payments-bridge/emails/rps-subscription.php; which
 * e-mail it is: `$email->id` (rps_subscription_cancelled…).
 *
 * @var array<string, mixed> $subscription the subscription as the service answered it
 * @var array<string, mixed> $event        the service's callback
 * @var string               $greeting     "Hi Anna," (or "Hello,")
 * @var list<string>         $lines        what the e-mail says, one paragraph each (plain text)
 * @var string               $email_heading
 * @var string               $additional_content
 * @var WC_Email             $email
 */

defined( 'ABSPATH' ) || exit;

do_action( 'woocommerce_email_header', $email_heading, $email );
?>
<p><?php echo esc_html( $greeting ); ?></p>
<?php foreach ( $lines as $line ) : ?>
<p><?php echo esc_html( $line ); ?></p>
<?php endforeach; ?>
<?php
if ( $additional_content ) {
	echo wp_kses_post( wpautop( wptexturize( $additional_content ) ) );
}
do_action( 'woocommerce_email_footer', $email );
