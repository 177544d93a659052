import CALSA
import CabinOutput
import Glibc

extension PCMOutput {
    /// Negotiates hardware and software parameters: interleaved access, the first format
    /// the device takes, the channel count, the nearest rate, period and period count; then
    /// start when the buffer is full and wake when a period is free.
    /// The corresponding C functions are `snd_pcm_hw_params_*`, `snd_pcm_hw_params`,
    /// `snd_pcm_sw_params_*` and `snd_pcm_sw_params`.
    static func configure(_ pcm: OpaquePointer, device: String,
                          _ config: OutputConfiguration) throws(AudioDeviceError) -> OutputFormat {
        func check(_ err: Int32, _ op: String, _ kind: AudioDeviceError.Kind? = nil) throws(AudioDeviceError) {
            if err < 0 { throw ALSA.error(err, device: device, operation: op, kind: kind) }
        }
        var hwp: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&hwp), "snd_pcm_hw_params_malloc")
        guard let hw = hwp else { throw ALSA.error(-ENOMEM, device: device, operation: "snd_pcm_hw_params_malloc") }
        defer { snd_pcm_hw_params_free(hw) }
        try check(snd_pcm_hw_params_any(pcm, hw), "snd_pcm_hw_params_any")
        try check(snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED),
                  "snd_pcm_hw_params_set_access (interleaved)", .unsupportedConfiguration)
        guard let format = config.formats.first(where: { snd_pcm_hw_params_test_format(pcm, hw, $0.alsa) == 0 }) else {
            throw AudioDeviceError(.unsupportedConfiguration, device: device, operation: "snd_pcm_hw_params_set_format",
                                   code: EINVAL, detail: "takes none of \(config.formats.map(\.rawValue).joined(separator: ", "))")
        }
        try check(snd_pcm_hw_params_set_format(pcm, hw, format.alsa), "snd_pcm_hw_params_set_format", .unsupportedConfiguration)
        try check(snd_pcm_hw_params_set_channels(pcm, hw, UInt32(config.channelCount)),
                  "snd_pcm_hw_params_set_channels (\(config.channelCount))", .unsupportedConfiguration)
        var rate = UInt32(config.sampleRate)
        try check(snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, nil),
                  "snd_pcm_hw_params_set_rate_near (\(config.sampleRate))", .unsupportedConfiguration)
        var period = snd_pcm_uframes_t(config.periodFrames)
        try check(snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, nil),
                  "snd_pcm_hw_params_set_period_size_near (\(config.periodFrames))", .unsupportedConfiguration)
        var buffer = snd_pcm_uframes_t(Int(period) * config.periodCount)
        try check(snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer),
                  "snd_pcm_hw_params_set_buffer_size_near (\(buffer))", .unsupportedConfiguration)
        try check(snd_pcm_hw_params(pcm, hw), "snd_pcm_hw_params", .unsupportedConfiguration)
        snd_pcm_hw_params_get_period_size(hw, &period, nil)
        snd_pcm_hw_params_get_buffer_size(hw, &buffer)
        snd_pcm_hw_params_get_rate(hw, &rate, nil)

        var swp: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&swp), "snd_pcm_sw_params_malloc")
        guard let sw = swp else { throw ALSA.error(-ENOMEM, device: device, operation: "snd_pcm_sw_params_malloc") }
        defer { snd_pcm_sw_params_free(sw) }
        try check(snd_pcm_sw_params_current(pcm, sw), "snd_pcm_sw_params_current")
        try check(snd_pcm_sw_params_set_start_threshold(pcm, sw, buffer), "snd_pcm_sw_params_set_start_threshold")
        try check(snd_pcm_sw_params_set_avail_min(pcm, sw, period), "snd_pcm_sw_params_set_avail_min")
        try check(snd_pcm_sw_params(pcm, sw), "snd_pcm_sw_params")

        return OutputFormat(sampleRate: Int(rate), channelCount: config.channelCount,
                             periodFrames: Int(period), bufferFrames: Int(buffer), format: format)
    }
}
