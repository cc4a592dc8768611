<?php
/**
 * Subscription payment skipped (HTML). A theme overrides it by copying it to
 * yourtheme/recurring-payments-bridge/emails/rps-subscription-skipped.php.
 *
 * @var array<string, mixed> $subscription the subscription as the service answered it
 * @var array<string, mixed> $event        the service's callback
 * @var list<string>         $others       other subscriptions on the new payment method
 * @var string               $customer_name
 * @var string               $email_heading
 * @var string               $additional_content
 * @var WC_Email             $email
 */

defined( 'ABSPATH' ) || exit;

$name = (string) ( $subscription['name'] ?? '' );
$skipped = RPS_Email_Subscription::date( $event['skipped_date'] ?? null );
$next    = RPS_Email_Subscription::date( $subscription['next_payment_at'] ?? null );
/* translators: 1: the subscription's name, 2: a date */
$lines = array( sprintf( __( 'The payment of your subscription %1$s on %2$s is skipped.', 'recurring-payments-bridge' ), $name, $skipped ) );
if ( '' !== $next ) {
	/* translators: %s: a date */
	$lines[] = sprintf( __( 'The next payment is on %s.', 'recurring-payments-bridge' ), $next );
}
/* translators: %s: the customer's first name */
$greeting = '' !== $customer_name ? sprintf( __( 'Hi %s,', 'recurring-payments-bridge' ), $customer_name ) : __( 'Hello,', 'recurring-payments-bridge' );

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
